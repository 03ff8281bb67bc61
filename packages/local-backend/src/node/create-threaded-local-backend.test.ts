import { afterAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../create-local-backend.js';
import { createThreadedLocalBackend } from './create-threaded-local-backend.js';

const threaded = createThreadedLocalBackend({ threads: 2 });
const inProcess = createLocalBackend();

afterAll(async () => {
  await threaded.close();
});

function post(path: string, body: unknown, init: RequestInit = {}): Request {
  return new Request(`http://local${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': 'fixed' },
    body: JSON.stringify(body),
    ...init,
  });
}

// Pseudo-random letters without spaces: one long word, the tokenizer's slowest input.
const heavyPrompt = Array.from({ length: 262_144 }, (_, index) =>
  String.fromCharCode(97 + ((index * 7919) % 26)),
).join('');

describe('createThreadedLocalBackend', () => {
  it('answers with the same status, headers and bytes as the handler in process', async () => {
    const requests = [
      () =>
        post('/tokenize', {
          model: 'alpha36-35b-a3b-instruct',
          prompt: 'Hello, world! Tokenize me.',
        }),
      () =>
        post('/rerank', {
          model: 'gamma-reranker-v2-m3',
          query: 'red fox',
          texts: ['a red fox', 'a blue whale', 'fox'],
          raw_scores: true,
        }),
      () => post('/rerank', { query: 'red fox' }),
      () =>
        post('/v1/chat/completions', {
          model: 'unknown-model',
          messages: [{ role: 'user', content: 'hi' }],
        }),
      () => new Request('http://local/health'),
    ];
    for (const request of requests) {
      const [mine, theirs] = await Promise.all([threaded.handle(request()), inProcess(request())]);
      expect(mine.status).toBe(theirs.status);
      expect([...mine.headers]).toEqual([...theirs.headers]);
      expect(new Uint8Array(await mine.arrayBuffer())).toEqual(
        new Uint8Array(await theirs.arrayBuffer()),
      );
    }
  });

  it('streams a chat answer chunk by chunk, to its end', async () => {
    const response = await threaded.handle(
      post('/v1/chat/completions', {
        model: 'alpha36-35b-a3b-instruct',
        messages: [{ role: 'user', content: 'Say hi' }],
        stream: true,
      }),
    );
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const text = await response.text();
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(text.match(/^data: /gm)?.length).toBeGreaterThan(3);
  });

  it('stops a stream whose reader cancels, and keeps serving', async () => {
    const controller = new AbortController();
    const slow = createThreadedLocalBackend({ threads: 1, tokensPerSecond: 20 });
    try {
      const request = post(
        '/v1/chat/completions',
        {
          model: 'alpha36-35b-a3b-instruct',
          messages: [{ role: 'user', content: 'Count slowly' }],
          stream: true,
          max_tokens: 200,
        },
        { signal: controller.signal },
      );
      const response = await slow.handle(request);
      const reader = response.body?.getReader();
      expect((await reader?.read())?.done).toBe(false);
      controller.abort();
      // The aborted request's body is errored with the abort's reason, as a fetch body is.
      await expect(reader?.read()).rejects.toThrow();
      const next = await slow.handle(
        post('/tokenize', { model: 'alpha36-35b-a3b-instruct', prompt: 'still here' }),
      );
      expect(next.status).toBe(200);
    } finally {
      await slow.close();
    }
  });

  it('replaces a worker whose heap grew past the limit, and goes on serving', async () => {
    const recycling = createThreadedLocalBackend({ threads: 1, recycleHeapMb: 1 });
    try {
      for (const prompt of ['first', 'second, on a fresh worker']) {
        const response = await recycling.handle(
          post('/tokenize', { model: 'alpha36-35b-a3b-instruct', prompt }),
        );
        expect(response.status).toBe(200);
      }
    } finally {
      await recycling.close();
    }
  });

  it('tokenizes a heavy prompt while this thread stays free', async () => {
    await (
      await threaded.handle(
        post('/tokenize', { model: 'alpha36-35b-a3b-instruct', prompt: 'warm up' }),
      )
    ).arrayBuffer();
    let last = performance.now();
    let longestGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    try {
      const response = await threaded.handle(
        post('/tokenize', { model: 'alpha36-35b-a3b-instruct', prompt: heavyPrompt }),
      );
      const body = (await response.json()) as { count: number };
      expect(body.count).toBeGreaterThan(0);
    } finally {
      clearInterval(ticker);
    }
    // A bound on blocking, not on speed: tokenizing it in this thread takes seconds.
    expect(longestGap).toBeLessThan(500);
  }, 120_000);
});
