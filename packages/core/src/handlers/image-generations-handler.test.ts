import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/gateway-error.js';
import type { EventStreamResult, JsonResult } from '../ports/handler-types.js';

type HandlerResult = JsonResult | EventStreamResult;
import type { UpstreamCall, UpstreamTarget } from '../ports/ports.js';
import { imageGenerationsHandler } from './image-generations-handler.js';
import type { CannedReply } from './test-ports.js';
import { fakeUpstream, fixedClock, jsonInput, testContext } from './test-ports.js';
import { bodyText } from '../http/body-text.js';

const targets: Record<string, UpstreamTarget> = {
  'alpha-image': { protocol: 'images', model: 'served-image' },
  'alpha-image-pe': { protocol: 'images', model: 'served-image-pe' },
  'alpha35-122b-a10b-instruct-general': { protocol: 'openai', model: 'served-122b' },
};

const imagesResponse = {
  created: 1_700_000_000,
  data: [{ b64_json: 'iVBORw0KGgo=' }],
  output_format: 'png',
  quality: 'high',
  size: '1024x1024',
  usage: {
    input_tokens: 0,
    output_tokens: 4160,
    total_tokens: 4160,
    input_tokens_details: { text_tokens: 0, image_tokens: 0 },
  },
};

const enhanced =
  'A red fox curled up in fresh snow at dawn, soft pink light, shallow depth of field.';
const chatCompletion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  choices: [
    { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: ` "${enhanced}" ` } },
  ],
  usage: { prompt_tokens: 57, completion_tokens: 88, total_tokens: 145 },
};

function answerByPath(call: UpstreamCall): CannedReply {
  return { body: call.path === '/v1/chat/completions' ? chatCompletion : imagesResponse };
}

const request = {
  model: 'alpha-image',
  prompt: 'a fox in snow',
  output_format: 'png',
  quality: 'hd',
  size: '1024x1024',
};

async function failure(promise: Promise<HandlerResult>) {
  try {
    await promise;
  } catch (error) {
    if (isGatewayError(error))
      return { status: error.status, code: error.code, param: error.param, headers: error.headers };
    throw error;
  }
  throw new Error('expected a failure');
}

function jsonBody(result: HandlerResult): unknown {
  if (result.kind !== 'json') throw new Error('expected a JSON result');
  return JSON.parse(bodyText(result.body));
}

describe('imageGenerationsHandler', () => {
  it('sends one images call with the mapped quality and answers the spec image result', async () => {
    const upstream = fakeUpstream(targets, answerByPath);
    const input = jsonInput(
      { ...request, n: 0, response_format: 'b64_json', style: 'vivid', user: 'u-1' },
      { requestId: 'req-7' },
    );
    const result = await imageGenerationsHandler(
      input,
      testContext({ upstream, clock: fixedClock(1_767_225_600_500) }),
    );

    expect(upstream.calls).toHaveLength(1);
    const call = upstream.calls[0];
    expect(call).toMatchObject({
      modelId: 'alpha-image',
      path: '/v1/images/generations',
      stream: false,
      requestId: 'req-7',
    });
    expect(call?.signal).toBe(input.signal);
    // hd is sent as high (docs/design.md); n 0 as 1 (spec); style and user are accepted and not forwarded.
    expect(call?.body).toEqual({
      model: 'served-image',
      prompt: 'a fox in snow',
      n: 1,
      size: '1024x1024',
      quality: 'high',
      output_format: 'png',
      response_format: 'b64_json',
    });

    expect(result).toMatchObject({
      kind: 'json',
      status: 200,
      headers: { 'content-type': 'application/json' },
      meta: { model: 'alpha-image', endpoint: 'fake-1', inputTokens: 0, outputTokens: 4160 },
    });
    expect(jsonBody(result)).toEqual({
      created: 1_767_225_600,
      data: [{ b64_json: 'iVBORw0KGgo=' }],
      usage: {
        total_tokens: 4160,
        input_tokens: 0,
        output_tokens: 4160,
        input_tokens_details: { text_tokens: 0, image_tokens: 0 },
      },
      output_format: 'png',
      quality: 'high',
      size: '1024x1024',
    });
    expect(result.headers['x-infergate-prompt-enhancement-model']).toBeUndefined();
  });

  it('answers stream: true with the one JSON result, odd values of the ignored fields included, none forwarded', async () => {
    const upstream = fakeUpstream(targets, answerByPath);
    const odd = {
      stream: true,
      background: true,
      output_compression: 150,
      partial_images: 2,
      moderation: 0,
      style: null,
      user: ['u'],
    };
    const result = await imageGenerationsHandler(
      jsonInput({ ...request, ...odd }),
      testContext({ upstream }),
    );
    expect(result).toMatchObject({
      kind: 'json',
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
    expect(jsonBody(result)).toMatchObject({ data: [{ b64_json: 'iVBORw0KGgo=' }] });
    expect(upstream.calls[0]?.body).toEqual({
      model: 'served-image',
      prompt: 'a fox in snow',
      n: 1,
      size: '1024x1024',
      quality: 'high',
      output_format: 'png',
      response_format: 'b64_json',
    });
  });

  it.each([
    ['standard', 'medium'],
    ['auto', 'medium'],
    ['low', 'low'],
  ])('sends quality %s upstream as %s', async (quality, sent) => {
    const upstream = fakeUpstream(targets, answerByPath);
    await imageGenerationsHandler(jsonInput({ ...request, quality }), testContext({ upstream }));
    expect(upstream.calls[0]?.body).toMatchObject({ quality: sent });
  });

  it('rewrites the prompt on the text model first for image-pro, then generates with the enhanced prompt', async () => {
    const upstream = fakeUpstream(targets, answerByPath);
    const result = await imageGenerationsHandler(
      jsonInput({ ...request, model: 'image-pro' }),
      testContext({ upstream }),
    );

    expect(upstream.calls.map((call) => [call.modelId, call.path])).toEqual([
      ['alpha35-122b-a10b-instruct-general', '/v1/chat/completions'],
      ['alpha-image-pe', '/v1/images/generations'],
    ]);
    const enhancement = upstream.calls[0]?.body as {
      model: string;
      messages: Array<{ role: string; content: string }>;
      stream: boolean;
      chat_template_kwargs: unknown;
    };
    expect(enhancement.model).toBe('served-122b');
    expect(enhancement.stream).toBe(false);
    expect(enhancement.chat_template_kwargs).toEqual({ enable_thinking: false });
    expect(enhancement.messages.at(-1)).toEqual({ role: 'user', content: 'a fox in snow' });
    expect(upstream.calls[1]?.body).toMatchObject({ model: 'served-image-pe', prompt: enhanced });

    expect(result.headers).toMatchObject({
      'x-infergate-prompt-enhancement-model': 'alpha35-122b-a10b-instruct-general',
      'x-infergate-prompt-enhancement-tokens': '57/88',
    });
    expect(result.meta).toMatchObject({
      model: 'alpha-image-pe',
      outputTokens: 4160,
      promptEnhancement: {
        model: 'alpha35-122b-a10b-instruct-general',
        inputTokens: 57,
        outputTokens: 88,
      },
    });
  });

  it('does not generate when the enhancement call fails, and passes its 4xx on', async () => {
    const upstream = fakeUpstream(targets, () => ({
      status: 400,
      body: { error: { message: 'prompt too long', param: null } },
    }));
    expect(
      await failure(
        imageGenerationsHandler(
          jsonInput({ ...request, model: 'alpha-image-pe' }),
          testContext({ upstream }),
        ),
      ),
    ).toMatchObject({
      status: 400,
      code: 'upstream_rejected',
    });
    expect(upstream.calls).toHaveLength(1);
  });

  it('answers 502 when the enhancement comes back empty', async () => {
    const upstream = fakeUpstream(targets, (call) =>
      call.path === '/v1/chat/completions'
        ? { body: { ...chatCompletion, choices: [{ message: { content: '  ' } }] } }
        : { body: imagesResponse },
    );
    expect(
      await failure(
        imageGenerationsHandler(
          jsonInput({ ...request, model: 'alpha-image-pe' }),
          testContext({ upstream }),
        ),
      ),
    ).toMatchObject({
      status: 502,
    });
    expect(upstream.calls).toHaveLength(1);
  });

  it('answers 503 model_not_configured, without any call, when the image or the text model has no upstream', async () => {
    const noImage = fakeUpstream(
      {
        'alpha35-122b-a10b-instruct-general': targets[
          'alpha35-122b-a10b-instruct-general'
        ] as UpstreamTarget,
      },
      answerByPath,
    );
    expect(
      await failure(
        imageGenerationsHandler(
          jsonInput({ ...request, model: 'image-pro' }),
          testContext({ upstream: noImage }),
        ),
      ),
    ).toMatchObject({
      status: 503,
      code: 'model_not_configured',
    });
    expect(noImage.calls).toHaveLength(0);
    const noText = fakeUpstream(
      { 'alpha-image-pe': targets['alpha-image-pe'] as UpstreamTarget },
      answerByPath,
    );
    expect(
      await failure(
        imageGenerationsHandler(
          jsonInput({ ...request, model: 'image-pro' }),
          testContext({ upstream: noText }),
        ),
      ),
    ).toMatchObject({
      status: 503,
      code: 'model_not_configured',
    });
    expect(noText.calls).toHaveLength(0);
  });

  it('refuses a model the key may not use, accepting either the virtual or the catalogue id in the allow-list', async () => {
    const upstream = fakeUpstream(targets, answerByPath);
    const body = { ...request, model: 'image-pro' };
    expect(
      await failure(
        imageGenerationsHandler(
          jsonInput(body),
          testContext({ upstream, identity: { name: 'k', models: ['alpha-image'] } }),
        ),
      ),
    ).toMatchObject({
      status: 403,
      code: 'model_not_allowed',
    });
    expect(upstream.calls).toHaveLength(0);
    await expect(
      imageGenerationsHandler(
        jsonInput(body),
        testContext({ upstream, identity: { name: 'k', models: ['image-pro'] } }),
      ),
    ).resolves.toMatchObject({
      status: 200,
    });
    await expect(
      imageGenerationsHandler(
        jsonInput(body),
        testContext({ upstream, identity: { name: 'k', models: ['alpha-image-pe'] } }),
      ),
    ).resolves.toMatchObject({ status: 200 });
  });

  it('refuses models that do not generate images', async () => {
    const upstream = fakeUpstream(targets, answerByPath);
    expect(
      await failure(
        imageGenerationsHandler(
          jsonInput({ ...request, model: 'alpha-image-edit' }),
          testContext({ upstream }),
        ),
      ),
    ).toMatchObject({
      status: 400,
      code: 'model_not_supported',
      param: 'model',
    });
    expect(
      await failure(
        imageGenerationsHandler(
          jsonInput({ ...request, model: 'general-pro' }),
          testContext({ upstream }),
        ),
      ),
    ).toMatchObject({
      status: 400,
      code: 'model_not_supported',
    });
    expect(
      await failure(
        imageGenerationsHandler(
          jsonInput({ ...request, model: 'dall-e-3' }),
          testContext({ upstream }),
        ),
      ),
    ).toMatchObject({
      status: 404,
      code: 'model_not_found',
    });
    expect(upstream.calls).toHaveLength(0);
  });

  it('refuses 2 MP + 1 without calling upstream, and accepts exactly 2 MP (fault matrix row 9)', async () => {
    const upstream = fakeUpstream(targets, answerByPath);
    expect(
      await failure(
        imageGenerationsHandler(
          jsonInput({ ...request, size: '699051x3' }),
          testContext({ upstream }),
        ),
      ),
    ).toMatchObject({
      status: 400,
      param: 'size',
    });
    expect(upstream.calls).toHaveLength(0);
    await expect(
      imageGenerationsHandler(
        jsonInput({ ...request, size: '2048x1024' }),
        testContext({ upstream }),
      ),
    ).resolves.toMatchObject({ status: 200 });
  });

  it('refuses n: 2 and response_format url without calling upstream', async () => {
    const upstream = fakeUpstream(targets, answerByPath);
    expect(
      await failure(
        imageGenerationsHandler(jsonInput({ ...request, n: 2 }), testContext({ upstream })),
      ),
    ).toMatchObject({ status: 400, param: 'n' });
    expect(
      await failure(
        imageGenerationsHandler(
          jsonInput({ ...request, response_format: 'url' }),
          testContext({ upstream }),
        ),
      ),
    ).toMatchObject({
      status: 400,
      param: 'response_format',
    });
    expect(upstream.calls).toHaveLength(0);
  });

  it('maps upstream failures: 429 keeps Retry-After, 500 and a wrong 2xx body become 502', async () => {
    const limited = fakeUpstream(targets, () => ({
      status: 429,
      headers: { 'retry-after': '7' },
      body: { error: { message: 'slow down' } },
    }));
    expect(
      await failure(
        imageGenerationsHandler(jsonInput(request), testContext({ upstream: limited })),
      ),
    ).toMatchObject({
      status: 429,
      headers: { 'retry-after': '7' },
    });
    const broken = fakeUpstream(targets, () => ({ status: 500, body: 'Internal Server Error' }));
    expect(
      await failure(imageGenerationsHandler(jsonInput(request), testContext({ upstream: broken }))),
    ).toMatchObject({ status: 502 });
    const urls = fakeUpstream(targets, () => ({
      body: { created: 1, data: [{ url: 'https://cdn.example.com/a.png' }] },
    }));
    expect(
      await failure(imageGenerationsHandler(jsonInput(request), testContext({ upstream: urls }))),
    ).toMatchObject({ status: 502, code: 'upstream_error' });
  });
});
