import { describe, expect, it } from 'vitest';
import { createLocalBackend } from '../src/index.js';
import { readSse } from './read-sse.js';
import { postJson, useTestServer } from './test-server.js';
import type { ChatChunk, ChatCompletion } from './wire-types.js';

const model = 'alpha36-35b-a3b-instruct';
const server = useTestServer();
const paced = useTestServer({ tokensPerSecond: 20 });

function stream(
  url: string,
  body: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream: true, ...body }),
    signal,
  });
}

function joined(chunks: ChatChunk[], field: 'content' | 'reasoning'): string {
  return chunks.map((chunk) => chunk.choices[0]?.delta[field] ?? '').join('');
}

describe('POST /v1/chat/completions, streamed', () => {
  it('frames chunks as vLLM does: role first, deltas, finish_reason with stop_reason, usage chunk, [DONE]', async () => {
    const messages = [{ role: 'user', content: 'stream me a reflection, 你好' }];
    const response = await stream(server.url(), {
      messages,
      stream_options: { include_usage: true },
    });
    expect(response.status).toBe(200);
    const read = await readSse(response);
    expect(read.done).toBe(true);
    const chunks = read.payloads as ChatChunk[];
    const usageChunk = chunks.at(-1);
    const choiceChunks = chunks.slice(0, -1);
    for (const chunk of chunks) {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.id).toBe(chunks[0]?.id);
      expect(chunk.model).toBe(model);
    }
    expect(choiceChunks[0]?.choices[0]).toEqual({
      index: 0,
      delta: { role: 'assistant', content: '' },
      logprobs: null,
      finish_reason: null,
    });
    const last = choiceChunks.at(-1)?.choices[0];
    expect(last?.finish_reason).toBe('stop');
    expect(last?.stop_reason).toBe(151645);
    for (const chunk of choiceChunks.slice(0, -1)) {
      expect(chunk.choices[0]?.finish_reason).toBeNull();
      expect(chunk.choices[0]).not.toHaveProperty('stop_reason');
      expect(chunk).not.toHaveProperty('usage');
    }
    expect(usageChunk?.choices).toEqual([]);
    const nonStreamed = await postJson<ChatCompletion>(`${server.url()}/v1/chat/completions`, {
      model,
      messages,
    });
    expect(joined(choiceChunks, 'content')).toBe(nonStreamed.json.choices[0]?.message.content);
    const { prompt_tokens, completion_tokens } = nonStreamed.json.usage;
    expect(usageChunk?.usage).toEqual({
      prompt_tokens,
      completion_tokens,
      total_tokens: prompt_tokens + completion_tokens,
    });
  });

  it('sends no usage chunk unless include_usage is true', async () => {
    const read = await readSse(
      await stream(server.url(), {
        messages: [{ role: 'user', content: 'hi' }],
        stream_options: { include_usage: false },
      }),
    );
    const chunks = read.payloads as ChatChunk[];
    expect(chunks.every((chunk) => chunk.choices.length === 1 && chunk.usage === undefined)).toBe(
      true,
    );
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('streams reasoning deltas before content for a thinking request, and none otherwise', async () => {
    const messages = [{ role: 'user', content: 'think about this' }];
    const thinking = (
      await readSse(
        await stream(server.url(), {
          model: 'beta53-flash-agent',
          messages,
          chat_template_kwargs: { enable_thinking: true },
        }),
      )
    ).payloads as ChatChunk[];
    const firstContent = thinking.findIndex(
      (chunk) => (chunk.choices[0]?.delta.content ?? '') !== '',
    );
    const lastReasoning = thinking.findLastIndex(
      (chunk) => chunk.choices[0]?.delta.reasoning !== undefined,
    );
    expect(lastReasoning).toBeGreaterThan(0);
    expect(lastReasoning).toBeLessThan(firstContent);
    expect(joined(thinking, 'reasoning')).toContain('[infergate local backend]');
    const plain = (
      await readSse(await stream(server.url(), { model: 'beta53-flash-agent', messages }))
    ).payloads as ChatChunk[];
    expect(plain.some((chunk) => chunk.choices[0]?.delta.reasoning !== undefined)).toBe(false);
  });

  it('counts reasoning_tokens in the usage chunk and in continuous usage exactly as the non-streamed body does', async () => {
    const body = {
      model: 'beta53-flash-agent',
      messages: [{ role: 'user', content: 'think about the tides' }],
      chat_template_kwargs: { enable_thinking: true },
    };
    const nonStreamed = await postJson<ChatCompletion>(`${server.url()}/v1/chat/completions`, body);
    const expected = nonStreamed.json.usage.completion_tokens_details?.reasoning_tokens;
    expect(expected).toBeGreaterThan(0);
    const chunks = (
      await readSse(
        await stream(server.url(), {
          ...body,
          stream_options: { include_usage: true, continuous_usage_stats: true },
        }),
      )
    ).payloads as ChatChunk[];
    const final = chunks.at(-1);
    expect(final?.choices).toEqual([]);
    const { prompt_tokens, completion_tokens, total_tokens } = nonStreamed.json.usage;
    expect(final?.usage).toEqual({
      prompt_tokens,
      completion_tokens,
      total_tokens,
      completion_tokens_details: { reasoning_tokens: expected },
    });
    const running = chunks
      .slice(0, -1)
      .map((chunk) => chunk.usage?.completion_tokens_details?.reasoning_tokens);
    expect(running[0]).toBe(0);
    expect(running.at(-1)).toBe(expected);
    expect(
      running.every((count, index) => index === 0 || (count ?? -1) >= (running[index - 1] ?? 0)),
    ).toBe(true);
    // A request without reasoning reports no details, streamed or not.
    const plain = (
      await readSse(
        await stream(server.url(), {
          ...body,
          chat_template_kwargs: {},
          stream_options: { include_usage: true },
        }),
      )
    ).payloads as ChatChunk[];
    expect(plain.at(-1)?.usage).not.toHaveProperty('completion_tokens_details');
  });

  it('finishes with length at max_tokens and counts exactly that many tokens', async () => {
    const read = await readSse(
      await stream(server.url(), {
        messages: [{ role: 'user', content: 'hello' }],
        max_tokens: 7,
        stream_options: { include_usage: true },
      }),
    );
    const chunks = read.payloads as ChatChunk[];
    expect(chunks.at(-2)?.choices[0]).toMatchObject({ finish_reason: 'length', stop_reason: null });
    expect(chunks.at(-1)?.usage?.completion_tokens).toBe(7);
  });

  it('never leaks a stop string into streamed deltas, and ends where the non-streamed reply ends', async () => {
    const messages = [{ role: 'user', content: 'alpha beta gamma delta epsilon' }];
    const stop = ['gamma delta'];
    const chunks = (await readSse(await stream(server.url(), { messages, stop })))
      .payloads as ChatChunk[];
    const streamed = joined(chunks, 'content');
    expect(streamed).not.toContain('gamma');
    expect(chunks.at(-1)?.choices[0]).toMatchObject({
      finish_reason: 'stop',
      stop_reason: 'gamma delta',
    });
    const nonStreamed = await postJson<ChatCompletion>(`${server.url()}/v1/chat/completions`, {
      model,
      messages,
      stop,
    });
    expect(streamed).toBe(nonStreamed.json.choices[0]?.message.content);
  });

  it('streams each of n choices with its own role chunk and finish', async () => {
    const chunks = (
      await readSse(
        await stream(server.url(), { messages: [{ role: 'user', content: 'two please' }], n: 2 }),
      )
    ).payloads as ChatChunk[];
    for (const index of [0, 1]) {
      const mine = chunks.filter((chunk) => chunk.choices[0]?.index === index);
      expect(mine[0]?.choices[0]?.delta.role).toBe('assistant');
      expect(mine.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    }
  });

  it('with --tokens-per-second 20, chunks of a 20-token reply arrive spread out over time', async () => {
    const read = await readSse(
      await stream(paced.url(), {
        messages: [{ role: 'user', content: 'take your time' }],
        max_tokens: 20,
      }),
    );
    const arrivals = read.arrivals.slice(1);
    expect(arrivals.length).toBeGreaterThanOrEqual(10);
    // 19 intervals of 50 ms would be 950 ms; a generous bound.
    expect((arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThan(300);
  });

  it('answers 200 concurrent streaming requests without errors', async () => {
    const results = await Promise.all(
      Array.from({ length: 200 }, async (_, index) => {
        const response = await stream(server.url(), {
          messages: [{ role: 'user', content: `concurrent request number ${index}` }],
          max_tokens: 40,
        });
        const read = await readSse(response);
        const chunks = read.payloads as ChatChunk[];
        return {
          status: response.status,
          done: read.done,
          finish: chunks.at(-1)?.choices[0]?.finish_reason,
          text: joined(chunks, 'content'),
        };
      }),
    );
    expect(
      results.filter(
        (result) =>
          result.status !== 200 ||
          !result.done ||
          result.finish === undefined ||
          result.finish === null,
      ),
    ).toEqual([]);
    expect(new Set(results.map((result) => result.text)).size).toBe(200);
  }, 30_000);

  it('stops generating when the client aborts (the handler sees request.signal)', async () => {
    const handler = createLocalBackend({ tokensPerSecond: 2 });
    const controller = new AbortController();
    const pending = handler(
      new Request('http://local/v1/chat/completions', {
        method: 'POST',
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'slow' }] }),
        signal: controller.signal,
      }),
    );
    setTimeout(() => controller.abort(), 50);
    // Unaborted, this reply would take ~25 s at 2 tokens per second; aborted, the handler gives up at once.
    expect((await pending).status).toBe(499);
  });

  it('a client disconnecting mid-stream leaves the server serving', async () => {
    const controller = new AbortController();
    const response = await stream(
      paced.url(),
      { messages: [{ role: 'user', content: 'cancel me' }] },
      controller.signal,
    );
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toMatch(/^data: /);
    controller.abort();
    await expect(reader?.read()).rejects.toThrow();
    const health = await fetch(`${paced.url()}/health`);
    expect(health.status).toBe(200);
  });
});
