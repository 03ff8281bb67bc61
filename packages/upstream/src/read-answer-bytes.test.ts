import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { pushReadable } from './push-readable.js';
import { readAnswerBytes } from './read-answer-bytes.js';
import type { BodySink } from './transport.js';

class TooLarge extends Error {}
const bytes = (...values: number[]) => Uint8Array.from(values);
/** A Node stream hands back Buffers: pieces are compared by their bytes. */
const values = (pieces: Uint8Array[]) => pieces.map((piece) => [...piece]);

/** An answer body that yields `chunks`, waiting `gapMs` before each, and notes whether it was returned early. */
function body(chunks: Uint8Array[], gapMs = 0) {
  const state = { pulled: 0, returned: false };
  async function* generate() {
    try {
      for (const chunk of chunks) {
        if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
        state.pulled += 1;
        yield chunk;
      }
    } finally {
      state.returned = state.pulled < chunks.length;
    }
  }
  return { source: generate(), state };
}

function options(
  controller: AbortController,
  overrides: { idleMs?: number; maxBytes?: number } = {},
) {
  return {
    signal: controller.signal,
    idleMs: overrides.idleMs ?? 1_000,
    onIdle: () => controller.abort(new Error('idle')),
    maxBytes: overrides.maxBytes ?? 100,
    tooLarge: () => new TooLarge(),
  };
}

/** An answer whose body a Node stream pushes, as undici's does. */
const pushed = (readable: Readable) => ({
  body: readable,
  pushBody: (sink: BodySink) => pushReadable(readable, sink),
});

// The same answers pulled through the async iterator (fetch, in-process) and pushed by a Node stream (undici).
const ways = [
  ['pulled', (source: AsyncIterable<Uint8Array>) => ({ body: source })],
  [
    'pushed',
    (source: AsyncIterable<Uint8Array>) => pushed(Readable.from(source, { objectMode: false })),
  ],
] as const;

describe.each(ways)('readAnswerBytes, body %s', (_way, answer) => {
  it('hands back every piece of the answer as it came, unjoined, up to exactly the cap', async () => {
    const { source } = body([bytes(1, 2), bytes(3), bytes(4, 5)]);
    expect(
      values(
        await readAnswerBytes(answer(source), options(new AbortController(), { maxBytes: 5 })),
      ),
    ).toEqual([[1, 2], [3], [4, 5]]);
    expect(await readAnswerBytes(answer(body([]).source), options(new AbortController()))).toEqual(
      [],
    );
  });

  it('fails at the piece that passes the cap and reads no further', async () => {
    const { source, state } = body([bytes(1, 2), bytes(3, 4), bytes(5), bytes(6)]);
    await expect(
      readAnswerBytes(answer(source), options(new AbortController(), { maxBytes: 3 })),
    ).rejects.toBeInstanceOf(TooLarge);
    expect(state.pulled).toBe(2);
    expect(state.returned).toBe(true);
  });

  it('fails with the idle reason when a gap between pieces outlasts the idle limit, not when the pieces keep coming', async () => {
    const steady = body([bytes(1), bytes(2), bytes(3), bytes(4)], 15);
    expect(
      values(
        await readAnswerBytes(
          answer(steady.source),
          options(new AbortController(), { idleMs: 40 }),
        ),
      ),
    ).toEqual([[1], [2], [3], [4]]);
    const stalled = body([bytes(1), bytes(2)], 80);
    await expect(
      readAnswerBytes(answer(stalled.source), options(new AbortController(), { idleMs: 20 })),
    ).rejects.toThrow('idle');
  });

  it("fails at once with the signal's reason when aborted mid-answer, or before it starts", async () => {
    const controller = new AbortController();
    const { source } = body([bytes(1), bytes(2)], 1_000);
    const reading = readAnswerBytes(answer(source), options(controller));
    controller.abort(new Error('client gone'));
    await expect(reading).rejects.toThrow('client gone');
    const aborted = new AbortController();
    aborted.abort(new Error('already'));
    await expect(
      readAnswerBytes(answer(body([bytes(1)]).source), options(aborted)),
    ).rejects.toThrow('already');
  });

  it('turns a transport failure mid-answer into an UpstreamError of phase body', async () => {
    const failing = (async function* () {
      yield bytes(1);
      throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    })();
    await expect(
      readAnswerBytes(answer(failing), options(new AbortController())),
    ).rejects.toMatchObject({ name: 'UpstreamError', phase: 'body' });
  });
});

describe('readAnswerBytes over pushReadable', () => {
  it('fails as a body failure when the stream is destroyed after a piece with neither an end nor an error', async () => {
    const destroyed = new Readable({ read() {} });
    destroyed.push(bytes(1));
    setTimeout(() => destroyed.destroy(), 10);
    await expect(
      readAnswerBytes(pushed(destroyed), options(new AbortController())),
    ).rejects.toMatchObject({ name: 'UpstreamError', phase: 'body' });
  });
});
