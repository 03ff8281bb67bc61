import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../catalogue/default-catalogue.js';
import { isGatewayError } from '../errors/gateway-error.js';
import { UpstreamError } from '../errors/upstream-error.js';
import type { EventStreamResult, JsonResult } from '../ports/handler-types.js';
import { pngBytes, toDataUrl } from '../images/test-image-bytes.js';
import { chatCompletionsHandler } from './chat-completions-handler.js';
import type { UpstreamResponse } from '../ports/ports.js';
import { fakeUpstream, jsonInput, testContext } from './test-ports.js';
import type { CannedReply } from './test-ports.js';
import {
  chunkEvent,
  clientStream,
  parseSseText,
  readText,
  scriptedEvents,
  streamResponse,
  textTargets,
  vllmCompletion,
  vllmStreamEvents,
} from './text-test-ports.js';
import { bodyText } from '../http/body-text.js';
import { resolveGatewayConfig } from '../config/resolve-gateway-config.js';

const textIds = [...defaultCatalogue.models.values()]
  .filter((entry) => entry.kind === 'text')
  .map((entry) => entry.id);
const user = [{ role: 'user', content: 'Hi' }];

function setup(
  reply: (body: Record<string, unknown>) => CannedReply | UpstreamResponse = () => ({
    body: vllmCompletion(),
  }),
  identity?: { name: string; models?: string[] },
) {
  const upstream = fakeUpstream(textTargets(textIds), (call) =>
    reply(call.body as Record<string, unknown>),
  );
  const context = testContext({ upstream, ...(identity ? { identity } : {}) });
  return {
    upstream,
    call: (body: unknown) =>
      chatCompletionsHandler(jsonInput(body, { path: '/v1/chat/completions' }), context),
  };
}

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isGatewayError(error))
      return {
        status: error.status,
        code: error.code,
        param: error.param,
        message: error.message,
        headers: error.headers,
      };
    throw error;
  }
  throw new Error('expected the handler to throw');
}

function asJson(
  result: JsonResult | EventStreamResult,
): JsonResult & { parsed: Record<string, unknown> } {
  if (result.kind !== 'json') throw new Error('expected a JSON result');
  return { ...result, parsed: JSON.parse(bodyText(result.body)) as Record<string, unknown> };
}

function asStream(
  result: JsonResult | EventStreamResult,
): EventStreamResult & { stream: ReadableStream<Uint8Array> } {
  if (result.kind !== 'stream') throw new Error('expected a stream result');
  return { ...result, stream: clientStream(result) };
}

describe('chatCompletionsHandler', () => {
  it('resolves a virtual id, calls the upstream by its model name and answers with the catalogue id', async () => {
    const { upstream, call } = setup();
    const result = asJson(await call({ model: 'general-pro', messages: user, temperature: 0.2 }));
    expect(upstream.calls).toHaveLength(1);
    expect(upstream.calls[0]).toMatchObject({
      modelId: 'alpha35-122b-a10b-instruct-general',
      path: '/v1/chat/completions',
      stream: false,
      requestId: 'req-test-1',
    });
    // A model without a thinking rule gets no vLLM-only field: a strict OpenAI-compatible server may sit behind it.
    expect(upstream.calls[0]?.body).toEqual({
      model: 'served-alpha35-122b-a10b-instruct-general',
      messages: user,
      temperature: 0.2,
    });
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toBe('application/json');
    expect(result.parsed).toMatchObject({
      object: 'chat.completion',
      model: 'alpha35-122b-a10b-instruct-general',
      choices: [{ message: { content: 'Hello there.' } }],
    });
    expect(result.meta).toMatchObject({
      model: 'alpha35-122b-a10b-instruct-general',
      endpoint: 'fake-1',
      inputTokens: 11,
      outputTokens: 7,
    });
  });

  it('sends the beta53 fixed settings inside chat_template_kwargs and hides thinking for -chat variants', async () => {
    const { upstream, call } = setup(() => ({
      body: vllmCompletion({ reasoning: 'private thoughts' }),
    }));
    const result = asJson(
      await call({ model: 'general-max-thinking', messages: user, reasoning_effort: 'high' }),
    );
    const body = upstream.calls[0]?.body as Record<string, unknown>;
    expect(body.chat_template_kwargs).toEqual({
      enable_thinking: true,
      clear_thinking: true,
      reasoning_effort: 'high',
    });
    expect(body).not.toHaveProperty('reasoning_effort');
    expect(result.parsed.model).toBe('beta53-flash-chat');
    expect(result.body).not.toContain('private thoughts');
  });

  it('exposes thinking and defaults effort to max on beta53-flash-agent; locks -low variants to low', async () => {
    const { upstream, call } = setup(() => ({ body: vllmCompletion({ reasoning: 'visible' }) }));
    const agent = asJson(await call({ model: 'coding-max-thinking', messages: user }));
    expect((upstream.calls[0]?.body as Record<string, unknown>).chat_template_kwargs).toEqual({
      enable_thinking: true,
      clear_thinking: false,
      reasoning_effort: 'max',
    });
    expect(agent.body).toContain('"reasoning":"visible"');
    await call({ model: 'coding-max', messages: user, reasoning_effort: 'low' });
    expect((upstream.calls[1]?.body as Record<string, unknown>).chat_template_kwargs).toEqual({
      enable_thinking: true,
      clear_thinking: false,
      reasoning_effort: 'low',
    });
  });

  it.each([
    ['a locked -low variant with high', 'beta53-flash-agent-low', 'high'],
    ['a model without a reasoning policy', 'alpha36-35b-a3b-thinking-general', 'low'],
  ])('refuses reasoning_effort on %s before any upstream call', async (_case, model, effort) => {
    const { upstream, call } = setup();
    expect(
      await rejection(call({ model, messages: user, reasoning_effort: effort })),
    ).toMatchObject({ status: 400, param: 'reasoning_effort' });
    expect(upstream.calls).toHaveLength(0);
  });

  it('drops sampling parameters on backend-enforced models and names them in x-infergate-ignored-params', async () => {
    const { upstream, call } = setup();
    const result = asJson(
      await call({
        model: 'alpha35-122b-a10b-instruct-creative',
        messages: user,
        temperature: 1.5,
        top_k: 3,
        max_tokens: 20,
        seed: 1,
      }),
    );
    expect(upstream.calls[0]?.body).toEqual({
      model: 'served-alpha35-122b-a10b-instruct-creative',
      messages: user,
      max_tokens: 20,
      seed: 1,
    });
    expect(result.headers['x-infergate-ignored-params']).toBe('temperature, top_k');
  });

  it('sends no ignored-params header when nothing was dropped', async () => {
    const result = asJson(
      await setup().call({ model: 'general-pro', messages: user, temperature: 1 }),
    );
    expect(result.headers).not.toHaveProperty('x-infergate-ignored-params');
  });

  it('refuses text over limits.body_text_bytes with 413, leaving image data URLs out of the count', async () => {
    const upstream = fakeUpstream(textTargets(textIds), () => ({ body: vllmCompletion() }));
    const context = testContext({
      upstream,
      config: resolveGatewayConfig({ limits: { body_text_bytes: 4096 } }, {}),
    });
    const call = (body: unknown) =>
      chatCompletionsHandler(jsonInput(body, { path: '/v1/chat/completions' }), context);
    const refused = await rejection(
      call({ model: 'general-std', messages: [{ role: 'user', content: 'x'.repeat(5000) }] }),
    );
    expect(refused).toMatchObject({ status: 413, code: 'request_too_large' });
    expect(refused.message).toContain('4096 bytes');

    const image = toDataUrl(
      'image/png',
      new Uint8Array([...pngBytes(800, 600), ...new Uint8Array(20_000)]),
    );
    const parts = [
      { type: 'text', text: 'Describe it.' },
      { type: 'image_url', image_url: { url: image } },
    ];
    asJson(await call({ model: 'general-std', messages: [{ role: 'user', content: parts }] }));
    // The same data URL where text goes is text.
    expect(
      await rejection(call({ model: 'general-std', messages: [{ role: 'user', content: image }] })),
    ).toMatchObject({ status: 413 });
    expect(upstream.calls).toHaveLength(1);
  });

  it('accepts a data URL image and refuses an image URL without calling the upstream', async () => {
    const { upstream, call } = setup();
    const image = (url: string) => [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url } },
        ],
      },
    ];
    asJson(
      await call({
        model: 'general-std',
        messages: image(toDataUrl('image/png', pngBytes(800, 600))),
      }),
    );
    expect(upstream.calls).toHaveLength(1);
    expect(
      await rejection(
        call({ model: 'general-std', messages: image('http://169.254.169.254/latest') }),
      ),
    ).toMatchObject({
      status: 400,
      param: 'messages[0].content[1].image_url.url',
    });
    expect(
      await rejection(
        call({ model: 'general-std', messages: image(toDataUrl('image/png', pngBytes(5000, 10))) }),
      ),
    ).toMatchObject({
      status: 400,
      param: 'messages[0].content[1].image_url.url',
    });
    expect(upstream.calls).toHaveLength(1);
  });

  it('refuses truncate_prompt_tokens beyond the model context window (spec: 1 to the maximum context)', async () => {
    const { call } = setup();
    expect(
      await rejection(
        call({ model: 'general-std', messages: user, truncate_prompt_tokens: 262_145 }),
      ),
    ).toMatchObject({
      status: 400,
      param: 'truncate_prompt_tokens',
    });
    asJson(await call({ model: 'general-std', messages: user, truncate_prompt_tokens: 262_144 }));
  });

  it.each([
    ['an unknown model', { model: 'nope' }, { status: 404, code: 'model_not_found' }],
    [
      'a model of another endpoint',
      { model: 'gamma-m3' },
      { status: 400, code: 'model_not_supported' },
    ],
    [
      'an upstream-only control',
      { model: 'general-pro', chat_template_kwargs: { chat_template: 'x' } },
      { status: 400, code: 'unknown_parameter', param: 'chat_template_kwargs' },
    ],
  ])('refuses %s', async (_case, body, expected) => {
    const { upstream, call } = setup();
    expect(await rejection(call({ messages: user, ...body }))).toMatchObject(expected);
    expect(upstream.calls).toHaveLength(0);
  });

  it("enforces the key's model allow-list by virtual or catalogue id", async () => {
    const { call } = setup(undefined, { name: 'k', models: ['general-pro'] });
    asJson(await call({ model: 'general-pro', messages: user }));
    expect(await rejection(call({ model: 'general-std', messages: user }))).toMatchObject({
      status: 403,
      code: 'model_not_allowed',
    });
  });

  it('answers 503 model_not_configured when no upstream serves the model', async () => {
    const upstream = fakeUpstream({}, () => ({ body: vllmCompletion() }));
    const promise = chatCompletionsHandler(
      jsonInput({ model: 'general-pro', messages: user }),
      testContext({ upstream }),
    );
    expect(await rejection(promise)).toMatchObject({ status: 503, code: 'model_not_configured' });
  });

  it.each([
    [
      {
        status: 400,
        body: {
          error: {
            message: "This model's maximum context length is 262144 tokens",
            type: 'BadRequestError',
            param: 'input_tokens',
            code: 400,
          },
        },
      },
      { status: 400, code: 'upstream_rejected', param: 'input_tokens' },
    ],
    [
      {
        status: 429,
        headers: { 'retry-after': '7' },
        body: { error: { message: 'slow down', code: 429 } },
      },
      { status: 429, headers: { 'retry-after': '7' } },
    ],
    [
      { status: 500, body: { error: { message: 'boom', code: 500 } } },
      { status: 502, code: 'upstream_error' },
    ],
    [
      { status: 503, body: undefined },
      { status: 502, code: 'upstream_error' },
    ],
    [
      { status: 200, body: { unexpected: true } },
      { status: 502, code: 'upstream_error' },
    ],
    [
      { status: 200, body: '<html>oops</html>' },
      { status: 502, code: 'upstream_error' },
    ],
  ] as const)('maps upstream %j to %j', async (reply, expected) => {
    const { call } = setup(() => reply as CannedReply);
    expect(await rejection(call({ model: 'general-pro', messages: user }))).toMatchObject(expected);
  });
});

describe('chatCompletionsHandler, streaming', () => {
  it('streams the rewritten chunks to [DONE] with SSE headers, always asking the upstream for usage', async () => {
    const { upstream, call } = setup(() =>
      streamResponse(scriptedEvents(vllmStreamEvents(['Hel', 'lo'], { reasoning: ['r'] }))),
    );
    const result = asStream(
      await call({ model: 'general-std-thinking', messages: user, stream: true }),
    );
    expect(result.headers).toMatchObject({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    expect(upstream.calls[0]).toMatchObject({
      stream: true,
      body: { stream: true, stream_options: { include_usage: true } },
    });
    const text = await readText(result.stream);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const events = parseSseText(text);
    const chunks = events
      .slice(0, -1)
      .map((event) => JSON.parse(event.data) as Record<string, unknown>);
    expect(chunks.every((chunk) => chunk.model === 'alpha36-35b-a3b-thinking-general')).toBe(true);
    expect(chunks.some((chunk) => 'usage' in chunk)).toBe(false);
    expect(text).toContain('"reasoning":"r"');
    expect(result.meta).toMatchObject({
      model: 'alpha36-35b-a3b-thinking-general',
      inputTokens: 11,
      outputTokens: 2,
    });
  });

  it('forwards the usage chunk when the client asked for it', async () => {
    const { call } = setup(() => streamResponse(scriptedEvents(vllmStreamEvents(['a']))));
    const result = asStream(
      await call({
        model: 'general-std',
        messages: user,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    const events = parseSseText(await readText(result.stream));
    expect(JSON.parse(events.at(-2)?.data ?? '{}')).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 11 },
    });
  });

  it('ends a stream whose upstream fails mid-way with an error event and [DONE], never a clean end', async () => {
    const failing = scriptedEvents(
      [chunkEvent({ role: 'assistant', content: '' }), chunkEvent({ content: 'par' })],
      new UpstreamError({ phase: 'body', kind: 'timeout', message: 'idle timeout' }),
    );
    const result = asStream(
      await setup(() => streamResponse(failing)).call({
        model: 'general-std',
        messages: user,
        stream: true,
      }),
    );
    const events = parseSseText(await readText(result.stream));
    expect(JSON.parse(events.at(-2)?.data ?? '{}')).toMatchObject({
      error: {
        code: 'upstream_timeout',
        type: 'api_error',
        param: null,
        message: expect.any(String),
      },
    });
    expect(events.at(-1)?.data).toBe('[DONE]');
  });

  it('ends a stream whose upstream closes without [DONE] with an error event', async () => {
    const truncated = scriptedEvents([
      chunkEvent({ role: 'assistant', content: '' }),
      chunkEvent({ content: 'par' }),
    ]);
    const result = asStream(
      await setup(() => streamResponse(truncated)).call({
        model: 'general-std',
        messages: user,
        stream: true,
      }),
    );
    const events = parseSseText(await readText(result.stream));
    expect(JSON.parse(events.at(-2)?.data ?? '{}')).toMatchObject({
      error: { code: 'upstream_error' },
    });
    expect(events.at(-1)?.data).toBe('[DONE]');
  });

  it('answers an HTTP error when the upstream fails before the first event', async () => {
    const { call } = setup(() => ({
      status: 404,
      body: {
        error: {
          message: 'The model `x` does not exist.',
          type: 'NotFoundError',
          param: 'model',
          code: 404,
        },
      },
    }));
    expect(
      await rejection(call({ model: 'general-std', messages: user, stream: true })),
    ).toMatchObject({ status: 404, code: 'upstream_rejected' });
  });

  it('stops the upstream when the client cancels the stream', async () => {
    const events = scriptedEvents(vllmStreamEvents(['a', 'b', 'c', 'd']));
    const result = asStream(
      await setup(() => streamResponse(events)).call({
        model: 'general-std',
        messages: user,
        stream: true,
      }),
    );
    const reader = result.stream.getReader();
    await reader.read();
    await reader.cancel();
    expect(events.returned).toBe(true);
  });
});
