/// <reference types="node" />
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIUserAbortError,
  InternalServerError,
  createClient,
  type ChatCompletionChunk,
  type InfergateClient,
  type ResponseStreamEvent,
} from '../src/index.js';
import { localGatewayConfig, startGateway, testKey, type RunningGateway } from './start-gateway.js';
import { startTestUpstream, type TestUpstream } from './start-test-upstream.js';

let gateway: RunningGateway;
let client: InfergateClient;

beforeAll(async () => {
  gateway = await startGateway(localGatewayConfig);
  client = createClient({ baseURL: gateway.url, apiKey: testKey });
});
afterAll(() => gateway.close());

const messages = [{ role: 'user' as const, content: 'Tell me a short story about a lighthouse.' }];

describe('chat completion streams', () => {
  it('reads a stream to [DONE]: typed chunks whose deltas add up to the non-streamed answer', async () => {
    const stream = await client.chat.completions.create({
      model: 'general-std',
      messages,
      max_tokens: 48,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(stream.requestId).toEqual(expect.stringMatching(/\S/));
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(2);
    expect(new Set(chunks.map((chunk) => chunk.object))).toEqual(
      new Set(['chat.completion.chunk']),
    );
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');

    const summary = await stream.collect();
    expect(summary.text).toBe(text);
    expect(summary.finishReason).toEqual(expect.stringMatching(/^(stop|length)$/));
    expect(summary.model).toBe('alpha36-35b-a3b-instruct');
    expect(summary.usage?.total_tokens).toBe(
      (summary.usage?.prompt_tokens ?? 0) + (summary.usage?.completion_tokens ?? 0),
    );
    expect(summary.usage?.completion_tokens).toBeGreaterThan(0);

    // The local backend is deterministic: the same request without streaming gives the same text.
    const whole = await client.chat.completions.create({
      model: 'general-std',
      messages,
      max_tokens: 48,
    });
    expect(whole.choices[0]?.message.content).toBe(text);
  });

  it('keeps a stream that nobody reads yet whole across garbage collections', async () => {
    const stream = await client.chat.completions.create({
      model: 'general-std',
      messages,
      max_tokens: 16,
      stream: true,
    });
    // fetch (undici) cancels the body of a Response that was collected before its body was read.
    const { gc } = globalThis as { gc?: () => void };
    expect(gc, 'the sdk tests run with --expose-gc (vitest.config.ts)').toBeTypeOf('function');
    for (let round = 0; round < 3; round += 1) {
      gc?.();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const whole = await client.chat.completions.create({
      model: 'general-std',
      messages,
      max_tokens: 16,
    });
    expect(await stream.finalText()).toBe(whole.choices[0]?.message.content);
  });

  it('finalText() reads a stream nobody iterated', async () => {
    const stream = await client.chat.completions.create({
      model: 'general-std',
      messages,
      max_tokens: 16,
      stream: true,
    });
    const whole = await client.chat.completions.create({
      model: 'general-std',
      messages,
      max_tokens: 16,
    });
    expect(await stream.finalText()).toBe(whole.choices[0]?.message.content);
  });

  it('collect() after reading part of a stream still covers every chunk', async () => {
    const stream = await client.chat.completions.create({
      model: 'general-std',
      messages,
      max_tokens: 32,
      stream: true,
    });
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    const whole = await client.chat.completions.create({
      model: 'general-std',
      messages,
      max_tokens: 32,
    });
    expect((await stream.collect()).text).toBe(whole.choices[0]?.message.content);
  });

  it('can be iterated only once', async () => {
    const stream = await client.chat.completions.create({
      model: 'general-std',
      messages,
      max_tokens: 8,
      stream: true,
    });
    await stream.collect();
    expect(() => stream[Symbol.asyncIterator]()).toThrow(TypeError);
  });

  it('throws APIUserAbortError from the loop when the caller’s signal aborts mid-stream', async () => {
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'general-std', messages, max_tokens: 200, stream: true },
      { signal: controller.signal },
    );
    let received = 0;
    const error = await (async () => {
      for await (const _chunk of stream) {
        received += 1;
        if (received === 2) controller.abort(new Error('user went away'));
      }
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toEqual(new Error('user went away'));
    expect(received).toBe(2);
  });

  it('stops without an error when the loop breaks', async () => {
    const stream = await client.chat.completions.create({
      model: 'general-std',
      messages,
      max_tokens: 200,
      stream: true,
    });
    let received = 0;
    for await (const _chunk of stream) {
      received += 1;
      break;
    }
    expect(received).toBe(1);
    // The gateway is still fine after the client hung up mid-stream.
    await expect(
      client.tokenize({ model: 'general-std', prompt: 'still up?' }),
    ).resolves.toMatchObject({ max_model_len: 262_144 });
  });
});

describe('response streams', () => {
  it('reads a stream to response.completed: ordered typed events whose deltas make the final text', async () => {
    const stream = await client.responses.create({
      model: 'general-std',
      input: 'Tell me a short story about a lighthouse.',
      max_tokens: 48,
      stream: true,
    });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events[0]?.type).toBe('response.created');
    expect(events.at(-1)?.type).toBe('response.completed');
    expect(events.map((event) => event.sequence_number)).toEqual(
      events.map((_event, index) => index),
    );
    const deltas = events.flatMap((event) =>
      event.type === 'response.output_text.delta' ? [event.delta] : [],
    );
    expect(deltas.length).toBeGreaterThan(1);

    const summary = await stream.collect();
    expect(summary.text).toBe(deltas.join(''));
    expect(summary.response?.status).toBe('completed');
    expect(summary.response?.output_text).toBe(summary.text);
    expect(summary.usage?.total_tokens).toBe(
      (summary.usage?.input_tokens ?? 0) + (summary.usage?.output_tokens ?? 0),
    );
  });

  it('throws APIUserAbortError from the loop after stream.abort()', async () => {
    const stream = await client.responses.create({
      model: 'general-std',
      input: 'Count to a hundred.',
      max_tokens: 200,
      stream: true,
    });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of stream) {
        seen.push(event.type);
        if (event.type === 'response.output_text.delta') stream.abort();
      }
    })().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(seen).not.toContain('response.completed');
  });
});

describe('errors inside a stream (gateway in front of an upstream that breaks off mid-stream)', () => {
  let upstream: TestUpstream;
  let faultyGateway: RunningGateway;
  let faultyClient: InfergateClient;

  function breakOffChatStream(response: ServerResponse): void {
    const chunk = (delta: Record<string, string>) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-up', object: 'chat.completion.chunk', created: 1, model: 'served', choices: [{ index: 0, delta, logprobs: null, finish_reason: null }] })}\n\n`;
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write(
      chunk({ role: 'assistant', content: '' }) + chunk({ content: 'Once upon' }),
      () => setTimeout(() => response.socket?.destroy(), 20),
    );
  }

  beforeAll(async () => {
    upstream = await startTestUpstream((_attempt, _request, response) =>
      breakOffChatStream(response),
    );
    faultyGateway = await startGateway({
      keys: [testKey],
      upstreams: [
        {
          name: 'breaks-off',
          url: upstream.url,
          protocol: 'openai',
          models: { 'alpha36-35b-a3b-instruct': 'served' },
        },
      ],
    });
    faultyClient = createClient({ baseURL: faultyGateway.url, apiKey: testKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await faultyGateway.close();
    await upstream.close();
  });

  it('throws the typed error of a chat error chunk after the text received so far', async () => {
    const stream = await faultyClient.chat.completions.create({
      model: 'general-std',
      messages,
      stream: true,
    });
    const texts: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) texts.push(chunk.choices[0]?.delta.content ?? '');
    })().catch((caught: unknown) => caught);
    expect(texts.join('')).toBe('Once upon');
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: undefined, requestId: stream.requestId });
    expect((error as InternalServerError).message).toEqual(expect.stringMatching(/\S/));
  });

  it('throws the typed error of response.failed', async () => {
    const stream = await faultyClient.responses.create({
      model: 'general-std',
      input: 'hi',
      stream: true,
    });
    const error = await stream.collect().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ requestId: stream.requestId });
  });
});
