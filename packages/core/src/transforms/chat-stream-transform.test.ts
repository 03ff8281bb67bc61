import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../errors/upstream-error.js';
import {
  chunkEvent,
  doneData,
  scriptedEvents,
  scriptedReads,
  usageEvent,
  vllmStreamEvents,
} from '../handlers/text-test-ports.js';
import type { SseEvent } from '../sse/sse-event.js';
import type { TakeableIterator } from '../sse/takeable-iterator.js';
import { chatStreamToClientStream } from './chat-stream-transform.js';
import type { ChatStreamOptions } from './chat-stream-transform.js';

async function collect(events: AsyncIterable<SseEvent>): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** Reads as the request finaliser does: one awaited next(), then every event take() has ready. */
async function collectTaking(
  events: TakeableIterator<SseEvent>,
): Promise<{ events: SseEvent[]; reads: number[] }> {
  const out: SseEvent[] = [];
  const reads: number[] = [];
  for (let next = await events.next(); next.done !== true; next = await events.next()) {
    let count = 1;
    out.push(next.value);
    for (let ready = events.take?.(); ready !== undefined; ready = events.take?.()) {
      out.push(ready);
      count += 1;
    }
    reads.push(count);
  }
  return { events: out, reads };
}

function options(overrides: Partial<ChatStreamOptions> = {}): ChatStreamOptions {
  return {
    model: 'alpha36-35b-a3b-thinking-general',
    id: 'chatcmpl-00ff00ff00ff00ff00ff00ff00ff00ff',
    clearThinking: false,
    includeUsage: false,
    meta: {},
    ...overrides,
  };
}

const json = (event: SseEvent | undefined): Record<string, unknown> =>
  JSON.parse(event?.data ?? 'null') as Record<string, unknown>;

describe('chatStreamToClientStream', () => {
  it('rewrites the model in every chunk, renames reasoning_content, drops the unasked usage chunk, ends with [DONE]', async () => {
    const meta = {};
    const out = await collect(
      chatStreamToClientStream(
        scriptedEvents(
          vllmStreamEvents(['Hel', 'lo'], {
            reasoning: ['hmm'],
            reasoningField: 'reasoning_content',
          }),
        ),
        options({ meta }),
      ),
    );
    expect(out.at(-1)).toEqual({ data: '[DONE]' });
    const chunks = out.slice(0, -1).map(json);
    expect(chunks).toHaveLength(5);
    for (const chunk of chunks) expect(chunk.model).toBe('alpha36-35b-a3b-thinking-general');
    // The spec's chatcmpl-<hex> form, the same id on every chunk, whatever the upstream named it.
    for (const chunk of chunks) expect(chunk.id).toBe('chatcmpl-00ff00ff00ff00ff00ff00ff00ff00ff');
    expect(chunks.map((chunk) => (chunk.choices as Array<{ delta: unknown }>)[0]?.delta)).toEqual([
      { role: 'assistant', content: '' },
      { reasoning: 'hmm' },
      { content: 'Hel' },
      { content: 'lo' },
      {},
    ]);
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
    expect(meta).toEqual({ inputTokens: 11, outputTokens: 2 });
  });

  it('forwards the usage chunk (choices: []) when the client asked include_usage', async () => {
    const out = await collect(
      chatStreamToClientStream(
        scriptedEvents(vllmStreamEvents(['a'])),
        options({ includeUsage: true }),
      ),
    );
    const usageChunk = json(out.at(-2));
    expect(usageChunk).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 11, completion_tokens: 1, total_tokens: 12 },
      model: 'alpha36-35b-a3b-thinking-general',
    });
  });

  it('removes reasoning for models that hide thinking, dropping chunks left empty', async () => {
    const events = [
      chunkEvent({ role: 'assistant', content: '' }),
      chunkEvent({ reasoning: 'secret' }),
      chunkEvent({ reasoning: 'more', content: 'Hi' }),
      chunkEvent({}, 'stop'),
      doneData,
    ];
    const out = await collect(
      chatStreamToClientStream(scriptedEvents(events), options({ clearThinking: true })),
    );
    expect(out.map((event) => event.data).join('')).not.toContain('secret');
    expect(
      out.slice(0, -1).map((event) => (json(event).choices as Array<{ delta: unknown }>)[0]?.delta),
    ).toEqual([{ role: 'assistant', content: '' }, { content: 'Hi' }, {}]);
  });

  it('ends a stream that stops without [DONE] with an error event, then [DONE]', async () => {
    const upstream = scriptedEvents([
      chunkEvent({ role: 'assistant', content: '' }),
      chunkEvent({ content: 'par' }),
    ]);
    const out = await collect(chatStreamToClientStream(upstream, options()));
    expect(out).toHaveLength(4);
    expect(json(out[2])).toEqual({
      error: {
        message: expect.any(String),
        type: 'api_error',
        param: null,
        code: 'upstream_error',
      },
    });
    expect(out[3]).toEqual({ data: '[DONE]' });
  });

  it.each([
    ['timeout', 'upstream_timeout'],
    ['reset', 'upstream_error'],
    ['protocol', 'upstream_error'],
  ] as const)(
    'ends an iteration that throws UpstreamError %s with code %s, then [DONE]',
    async (kind, code) => {
      const upstream = scriptedEvents(
        [chunkEvent({ content: 'a' })],
        new UpstreamError({ phase: 'body', kind, message: `idle ${kind}` }),
      );
      const out = await collect(chatStreamToClientStream(upstream, options()));
      expect(json(out.at(-2))).toMatchObject({ error: { type: 'api_error', param: null, code } });
      expect(out.at(-1)).toEqual({ data: '[DONE]' });
    },
  );

  it("relays the upstream's in-stream error without its host names, stops reading, and ends with [DONE]", async () => {
    const upstream = scriptedEvents([
      chunkEvent({ content: 'a' }),
      {
        data: JSON.stringify({
          error: {
            message: 'engine died at http://10.0.0.5:8000/v1',
            type: 'InternalServerError',
            param: null,
            code: 500,
          },
        }),
      },
      doneData,
    ]);
    const out = await collect(chatStreamToClientStream(upstream, options()));
    const error = json(out.at(-2)).error as { message: string; code: string };
    expect(error.code).toBe('upstream_error');
    expect(error.message).not.toContain('10.0.0.5');
    expect(out.at(-1)).toEqual({ data: '[DONE]' });
    expect(upstream.returned).toBe(true);
  });

  it('treats an unparseable event as a failure, never a clean end', async () => {
    const out = await collect(
      chatStreamToClientStream(scriptedEvents([{ data: '{"truncated' }, doneData]), options()),
    );
    expect(json(out[0])).toMatchObject({ error: { code: 'upstream_error' } });
    expect(out).toHaveLength(2);
  });

  it('rewrites plain content chunks in their text without touching content that looks like JSON fields', async () => {
    const tricky = '","model":"evil","id":"x"} "model": \\"usage\\" \n é';
    const upstream = scriptedEvents([
      chunkEvent({ role: 'assistant', content: '' }),
      chunkEvent({ content: tricky }),
      chunkEvent({ content: 'plain' }),
      chunkEvent({}, 'stop'),
      doneData,
    ]);
    const out = await collect(chatStreamToClientStream(upstream, options()));
    const chunks = out.slice(0, -1).map(json);
    expect(chunks.map((chunk) => (chunk.choices as Array<{ delta: unknown }>)[0]?.delta)).toEqual([
      { role: 'assistant', content: '' },
      { content: tricky },
      { content: 'plain' },
      {},
    ]);
    for (const chunk of chunks)
      expect(chunk).toMatchObject({
        id: 'chatcmpl-00ff00ff00ff00ff00ff00ff00ff00ff',
        model: 'alpha36-35b-a3b-thinking-general',
      });
    // The same bytes as parse + stringify: the key order of the upstream chunk is kept.
    expect(out[2]?.data).toBe(
      JSON.stringify({
        id: 'chatcmpl-00ff00ff00ff00ff00ff00ff00ff00ff',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: 'alpha36-35b-a3b-thinking-general',
        choices: [{ index: 0, delta: { content: 'plain' }, logprobs: null, finish_reason: null }],
      }),
    );
  });

  it('treats a chunk in the plain-content layout but with an invalid escape as a failure', async () => {
    const broken = chunkEvent({ content: 'PLACEHOLDER' }).data.replace(
      'PLACEHOLDER',
      'bad \\x escape',
    );
    const out = await collect(
      chatStreamToClientStream(scriptedEvents([{ data: broken }, doneData]), options()),
    );
    expect(json(out[0])).toMatchObject({ error: { code: 'upstream_error' } });
    expect(out).toHaveLength(2);
  });

  it('stops the upstream when the consumer stops reading', async () => {
    const upstream = scriptedEvents(vllmStreamEvents(['a', 'b', 'c']));
    const stream = chatStreamToClientStream(upstream, options());
    await stream.next();
    await stream.return();
    expect(upstream.returned).toBe(true);
  });

  it('keeps continuous usage on chunks only when the client asked include_usage', async () => {
    const withUsage = {
      data: JSON.stringify({
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'x',
        choices: [{ index: 0, delta: { content: 'a' } }],
        usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
      }),
    };
    const asked = await collect(
      chatStreamToClientStream(
        scriptedEvents([withUsage, usageEvent(3, 1), doneData]),
        options({ includeUsage: true }),
      ),
    );
    expect(json(asked[0])).toHaveProperty('usage');
    const unasked = await collect(
      chatStreamToClientStream(scriptedEvents([withUsage, usageEvent(3, 1), doneData]), options()),
    );
    expect(json(unasked[0])).not.toHaveProperty('usage');
    expect(unasked).toHaveLength(2);
  });
});

describe('chatStreamToClientStream over an upstream that hands out ready events (take)', () => {
  const script = vllmStreamEvents(['Hel', 'lo', ' there'], {
    reasoning: ['hmm', 'so'],
    reasoningField: 'reasoning_content',
  });

  it.each([
    ['as they are', {}],
    ['hiding thinking', { clearThinking: true }],
    ['with the usage chunk', { includeUsage: true }],
  ] as const)(
    'gives the events of one upstream read in one pass, the same events as read one at a time (%s)',
    async (_name, overrides) => {
      const oneByOne = await collect(
        chatStreamToClientStream(scriptedEvents(script), options(overrides)),
      );
      const upstream = scriptedReads([script.slice(0, 4), script.slice(4)]);
      const taking = await collectTaking(chatStreamToClientStream(upstream, options(overrides)));
      expect(taking.events).toEqual(oneByOne);
      // Two upstream reads, two client chunks: one wait for the second read, and none after [DONE].
      expect(taking.reads).toHaveLength(2);
      expect(upstream.waits).toBe(1);
      expect(upstream.taken).toBe(script.length - 1);
      expect(upstream.returned).toBe(true);
    },
  );

  it('ends at a [DONE] inside a read: the events after it are never taken, and the upstream is returned at once', async () => {
    const upstream = scriptedReads([
      [chunkEvent({ content: 'a' }), doneData, chunkEvent({ content: 'after' })],
    ]);
    const stream = chatStreamToClientStream(upstream, options());
    expect(json((await stream.next()).value)).toMatchObject({
      choices: [{ delta: { content: 'a' } }],
    });
    expect(stream.take()).toEqual(doneData);
    expect(upstream.returned).toBe(true);
    expect(stream.take()).toBeUndefined();
    expect(await stream.next()).toEqual({ done: true, value: undefined });
    expect(upstream.taken).toBe(2);
  });

  it('relays an in-stream error inside a read at once, then [DONE], and stops reading', async () => {
    const error = {
      data: JSON.stringify({
        error: { message: 'engine died', type: 'InternalServerError', param: null, code: 500 },
      }),
    };
    const upstream = scriptedReads([
      [chunkEvent({ content: 'a' }), error, chunkEvent({ content: 'after' })],
    ]);
    const { events, reads } = await collectTaking(chatStreamToClientStream(upstream, options()));
    expect(reads).toEqual([3]);
    expect(json(events[1])).toEqual({
      error: { message: 'engine died', type: 'api_error', param: null, code: 'upstream_error' },
    });
    expect(events[2]).toEqual(doneData);
    expect(upstream.returned).toBe(true);
  });

  it('gives a failing read its ready events first, then the error event and [DONE]', async () => {
    const failure = new UpstreamError({ phase: 'body', kind: 'timeout', message: 'idle' });
    const upstream = scriptedReads(
      [[chunkEvent({ content: 'a' }), chunkEvent({ content: 'b' })]],
      failure,
    );
    const { events, reads } = await collectTaking(chatStreamToClientStream(upstream, options()));
    expect(reads).toEqual([2, 2]);
    expect(
      events
        .slice(0, 2)
        .map((event) => (json(event).choices as Array<{ delta: unknown }>)[0]?.delta),
    ).toEqual([{ content: 'a' }, { content: 'b' }]);
    expect(json(events[2])).toMatchObject({ error: { code: 'upstream_timeout' } });
    expect(events[3]).toEqual(doneData);
  });

  it('returns the upstream at once when the consumer stops while a read is pending', async () => {
    let returned = false;
    const stalled: AsyncIterableIterator<SseEvent> = {
      next: () => new Promise<IteratorResult<SseEvent>>(() => undefined),
      return: async () => {
        returned = true;
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]: () => stalled,
    };
    const stream = chatStreamToClientStream(stalled, options());
    void stream.next();
    await stream.return();
    expect(returned).toBe(true);
    expect(stream.take()).toBeUndefined();
  });
});
