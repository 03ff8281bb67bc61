import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../catalogue/default-catalogue.js';
import { isGatewayError } from '../errors/gateway-error.js';
import { UpstreamError } from '../errors/upstream-error.js';
import type { EventStreamResult, JsonResult } from '../ports/handler-types.js';

type HandlerResult = JsonResult | EventStreamResult;
import { pngBytes, toDataUrl } from '../images/test-image-bytes.js';
import { responsesHandler } from './responses-handler.js';
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
const image = toDataUrl('image/png', pngBytes(1024, 768));
const imageInput = (url: string) => [
  {
    role: 'user',
    content: [
      { type: 'input_text', text: 'What is in this image?' },
      { type: 'input_image', image_url: url },
    ],
  },
];

function setup(
  reply: () => CannedReply | UpstreamResponse = () => ({ body: vllmCompletion() }),
  imageInputForm: 'image' | 'text' = 'image',
) {
  const upstream = fakeUpstream(textTargets(textIds), () => reply());
  const base = testContext({ upstream });
  const context = { ...base, config: { ...base.config, responses: { imageInputForm } } };
  return {
    upstream,
    call: (body: unknown) => responsesHandler(jsonInput(body, { path: '/v1/responses' }), context),
  };
}

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isGatewayError(error))
      return { status: error.status, code: error.code, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected the handler to throw');
}

function parsed(result: HandlerResult): Record<string, unknown> {
  if (result.kind !== 'json') throw new Error('expected a JSON result');
  return JSON.parse(bodyText(result.body)) as Record<string, unknown>;
}

describe('responsesHandler', () => {
  it('refuses text over limits.body_text_bytes with 413, leaving input_image data URLs out of the count', async () => {
    const upstream = fakeUpstream(textTargets(textIds), () => ({ body: vllmCompletion() }));
    const context = testContext({
      upstream,
      config: resolveGatewayConfig({ limits: { body_text_bytes: 4096 } }, {}),
    });
    const call = (body: unknown) =>
      responsesHandler(jsonInput(body, { path: '/v1/responses' }), context);
    expect(await rejection(call({ model: 'general-std', input: 'x'.repeat(5000) }))).toMatchObject({
      status: 413,
      code: 'request_too_large',
    });
    const image = toDataUrl(
      'image/png',
      new Uint8Array([...pngBytes(800, 600), ...new Uint8Array(20_000)]),
    );
    const content = [
      { type: 'input_text', text: 'Describe it.' },
      { type: 'input_image', image_url: image },
    ];
    parsed(await call({ model: 'general-std', input: [{ role: 'user', content }] }));
    expect(await rejection(call({ model: 'general-std', input: image }))).toMatchObject({
      status: 413,
    });
    expect(upstream.calls).toHaveLength(1);
  });

  it('answers a text input in the text form, from one upstream chat call', async () => {
    const { upstream, call } = setup();
    const body = parsed(
      await call({
        model: 'general-std',
        input: 'Tell me a joke.',
        instructions: 'Be brief.',
        max_tokens: 64,
        temperature: 0.7,
      }),
    );
    expect(upstream.calls[0]).toMatchObject({
      modelId: 'alpha36-35b-a3b-instruct',
      path: '/v1/chat/completions',
      stream: false,
    });
    expect(upstream.calls[0]?.body).toEqual({
      model: 'served-alpha36-35b-a3b-instruct',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Tell me a joke.' },
      ],
      max_tokens: 64,
      temperature: 0.7,
    });
    expect(body).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'alpha36-35b-a3b-instruct',
      output_text: 'Hello there.',
      instructions: 'Be brief.',
      max_output_tokens: 64,
      temperature: 0.7,
    });
    expect(body.id).toMatch(/^resp_\d+$/);
  });

  it('answers image input in the form for image input by default', async () => {
    const { upstream, call } = setup();
    const body = parsed(await call({ model: 'general-std', input: imageInput(image) }));
    expect(body).toMatchObject({
      object: 'responses',
      output: [
        {
          type: 'message',
          content: { type: 'output_text', text: 'Hello there.' },
          finish_reason: 'stop',
        },
      ],
    });
    expect(body.id).toMatch(/^resp-[0-9a-f]+$/);
    expect((upstream.calls[0]?.body as { messages: unknown }).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this image?' },
          { type: 'image_url', image_url: { url: image } },
        ],
      },
    ]);
  });

  it('answers image input in the text form when configured so', async () => {
    const body = parsed(
      await setup(undefined, 'text').call({ model: 'general-std', input: imageInput(image) }),
    );
    expect(body).toMatchObject({ object: 'response', output_text: 'Hello there.' });
  });

  it('refuses an image URL, naming the field, without calling the upstream', async () => {
    const { upstream, call } = setup();
    expect(
      await rejection(
        call({ model: 'general-std', input: imageInput('https://example.com/cat.png') }),
      ),
    ).toMatchObject({
      status: 400,
      param: 'input[0].content[1].image_url',
    });
    expect(upstream.calls).toHaveLength(0);
  });

  it('accepts store: true (answered false) and ignores reasoning.effort on a model without a reasoning policy, naming it in the header', async () => {
    const { upstream, call } = setup();
    const result = await call({
      model: 'general-std',
      input: 'x',
      store: true,
      reasoning: { effort: 'medium', summary: 'auto' },
      metadata: { run: '7' },
    });
    expect(result.headers['x-infergate-ignored-params']).toBe('reasoning.effort');
    expect(parsed(result)).toMatchObject({ store: false, reasoning: null, metadata: { run: '7' } });
    expect(upstream.calls[0]?.body).not.toHaveProperty('chat_template_kwargs');
    expect(upstream.calls[0]?.body).not.toHaveProperty('reasoning_effort');
  });

  it('holds reasoning.effort to the beta53 rules: -low variants locked, the others take low, high or max', async () => {
    const { upstream, call } = setup();
    expect(
      await rejection(
        call({ model: 'beta53-flash-agent-low', input: 'x', reasoning: { effort: 'high' } }),
      ),
    ).toMatchObject({
      status: 400,
      param: 'reasoning.effort',
    });
    expect(
      await rejection(
        call({ model: 'beta53-flash-chat', input: 'x', reasoning: { effort: 'medium' } }),
      ),
    ).toMatchObject({
      status: 400,
      param: 'reasoning.effort',
    });
    expect(upstream.calls).toHaveLength(0);
    for (const [model, requested, sent] of [
      [
        'beta53-flash-chat',
        'max',
        { enable_thinking: true, clear_thinking: true, reasoning_effort: 'max' },
      ],
      [
        'beta53-flash-chat-low',
        'low',
        { enable_thinking: true, clear_thinking: true, reasoning_effort: 'low' },
      ],
      [
        'beta53-flash-agent',
        'high',
        { enable_thinking: true, clear_thinking: false, reasoning_effort: 'high' },
      ],
      [
        'beta53-flash-agent-low',
        undefined,
        { enable_thinking: true, clear_thinking: false, reasoning_effort: 'low' },
      ],
    ] as const) {
      const body = parsed(
        await call({
          model,
          input: 'x',
          ...(requested === undefined ? {} : { reasoning: { effort: requested, summary: 'auto' } }),
        }),
      );
      expect((upstream.calls.at(-1)?.body as Record<string, unknown>).chat_template_kwargs).toEqual(
        sent,
      );
      expect(body.reasoning).toEqual({
        effort: sent.reasoning_effort,
        summary: requested === undefined ? null : 'auto',
      });
    }
  });

  it('sends reasoning.effort to beta53 inside chat_template_kwargs and echoes the applied effort', async () => {
    const { upstream, call } = setup();
    const body = parsed(
      await call({ model: 'general-max-thinking', input: 'x', reasoning: { effort: 'low' } }),
    );
    expect((upstream.calls[0]?.body as Record<string, unknown>).chat_template_kwargs).toEqual({
      enable_thinking: true,
      clear_thinking: true,
      reasoning_effort: 'low',
    });
    expect(body).toMatchObject({
      model: 'beta53-flash-chat',
      reasoning: { effort: 'low', summary: null },
    });
  });

  it('drops sampling on backend-enforced models, reports them in the header and echoes null', async () => {
    const result = await setup().call({
      model: 'coding-std-thinking',
      input: 'x',
      temperature: 0.1,
      top_p: 0.5,
      min_p: 0.2,
    });
    expect(result.headers['x-infergate-ignored-params']).toBe('temperature, top_p, min_p');
    expect(parsed(result)).toMatchObject({ temperature: null, top_p: null });
  });

  it('is incomplete when the token limit stopped the answer', async () => {
    const body = parsed(
      await setup(() => ({ body: vllmCompletion({ finishReason: 'length' }) })).call({
        model: 'general-std',
        input: 'x',
        max_output_tokens: 3,
      }),
    );
    expect(body).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      max_output_tokens: 3,
    });
  });

  it('maps an upstream 5xx to 502', async () => {
    expect(
      await rejection(
        setup(() => ({ status: 500, body: { error: { message: 'x', code: 500 } } })).call({
          model: 'general-std',
          input: 'x',
        }),
      ),
    ).toMatchObject({ status: 502, code: 'upstream_error' });
  });
});

describe('responsesHandler, streaming', () => {
  it('streams responses events with event lines, from response.created to response.completed, and no [DONE]', async () => {
    const { upstream, call } = setup(() =>
      streamResponse(scriptedEvents(vllmStreamEvents(['Hi', '!']))),
    );
    const result = await call({ model: 'general-std', input: 'x', stream: true });
    if (result.kind !== 'stream') throw new Error('expected a stream');
    expect(result.headers['content-type']).toBe('text/event-stream');
    expect(upstream.calls[0]?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
    const text = await readText(clientStream(result));
    expect(text).not.toContain('[DONE]');
    const events = parseSseText(text);
    expect(events.map((event) => event.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(
      events.map(
        (event) => (JSON.parse(event.data) as { sequence_number: number }).sequence_number,
      ),
    ).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toMatchObject({
      response: { status: 'completed', output_text: 'Hi!', model: 'alpha36-35b-a3b-instruct' },
    });
    expect(result.meta).toMatchObject({ inputTokens: 11, outputTokens: 2 });
  });

  it('ends with response.failed when the upstream fails mid-stream', async () => {
    const failing = scriptedEvents(
      [chunkEvent({ content: 'par' })],
      new UpstreamError({ phase: 'body', kind: 'reset', message: 'connection reset' }),
    );
    const result = await setup(() => streamResponse(failing)).call({
      model: 'general-std',
      input: 'x',
      stream: true,
    });
    if (result.kind !== 'stream') throw new Error('expected a stream');
    const events = parseSseText(await readText(clientStream(result)));
    expect(events.at(-1)?.event).toBe('response.failed');
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toMatchObject({
      response: { status: 'failed', error: { code: 'upstream_error' } },
    });
  });
});
