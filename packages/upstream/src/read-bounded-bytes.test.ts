import { describe, expect, it } from 'vitest';
import { readBoundedBytes } from './read-bounded-bytes.js';

class TooLarge extends Error {}
const tooLarge = () => new TooLarge();
const bytes = (...values: number[]) => Uint8Array.from(values);

function webStream(chunks: Uint8Array[]): {
  stream: ReadableStream<Uint8Array>;
  pulled: () => number;
} {
  let index = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[index];
        index += 1;
        if (chunk === undefined) controller.close();
        else controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => index };
}

describe('readBoundedBytes', () => {
  it('joins the chunks of a Web stream and of an async iterable, up to exactly the cap', async () => {
    expect(
      await readBoundedBytes(webStream([bytes(1, 2), bytes(3), bytes(4, 5)]).stream, 5, tooLarge),
    ).toEqual(bytes(1, 2, 3, 4, 5));
    const iterable = (async function* () {
      yield bytes(1);
      yield bytes(2, 3);
    })();
    expect(await readBoundedBytes(iterable, 3, tooLarge)).toEqual(bytes(1, 2, 3));
    expect(await readBoundedBytes(webStream([]).stream, 0, tooLarge)).toEqual(new Uint8Array(0));
  });

  it("throws the caller's error at the chunk that passes the cap, reads no further and unlocks the stream", async () => {
    const source = webStream([bytes(1, 2), bytes(3, 4), bytes(5), bytes(6)]);
    await expect(readBoundedBytes(source.stream, 3, tooLarge)).rejects.toBeInstanceOf(TooLarge);
    expect(source.pulled()).toBe(2);
    expect(source.stream.locked).toBe(false);
  });

  it('stops an async iterable at the cap, which ends what it reads from', async () => {
    let finished = false;
    const endless = (async function* () {
      try {
        for (;;) yield new Uint8Array(1024);
      } finally {
        finished = true;
      }
    })();
    await expect(readBoundedBytes(endless, 10_000, tooLarge)).rejects.toBeInstanceOf(TooLarge);
    expect(finished).toBe(true);
  });

  it("stops a Web stream's waiting read when the signal aborts, throws its reason and leaves the rest readable", async () => {
    let pulls = 0;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    // One chunk, then a sender that stalls: the next chunk comes only when the test pushes it.
    const stream = new ReadableStream<Uint8Array>(
      {
        start(started) {
          controller = started;
        },
        pull() {
          pulls += 1;
          if (pulls === 1) controller.enqueue(bytes(1));
        },
      },
      { highWaterMark: 0 },
    );
    const stalled = new AbortController();
    const reading = readBoundedBytes(stream, 10, tooLarge, undefined, stalled.signal);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const reason = new Error('stalled');
    stalled.abort(reason);
    await expect(reading).rejects.toBe(reason);
    expect(stream.locked).toBe(false);
    const rest = stream.getReader();
    controller.enqueue(bytes(2));
    expect((await rest.read()).value).toEqual(bytes(2));
  });
});
