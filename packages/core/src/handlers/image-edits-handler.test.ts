import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/gateway-error.js';
import type { FormPart } from '../ports/form-part.js';
import { SplitDataUrl } from '../images/split-data-url.js';
import type { EventStreamResult, JsonResult } from '../ports/handler-types.js';

type HandlerResult = JsonResult | EventStreamResult;
import {
  jpegBytes,
  pngBytes,
  ssrfImageValues,
  toDataUrl,
  webpLossyBytes,
} from '../images/test-image-bytes.js';
import type { UpstreamCall, UpstreamTarget } from '../ports/ports.js';
import { imageEditsHandler } from './image-edits-handler.js';
import type { CannedReply } from './test-ports.js';
import { fakeUpstream, jsonInput, testContext } from './test-ports.js';
import { bodyText } from '../http/body-text.js';

const targets: Record<string, UpstreamTarget> = {
  'alpha-image-edit': { protocol: 'images', model: 'served-edit' },
  'alpha-image-edit-pe': { protocol: 'images', model: 'served-edit-pe' },
  'alpha35-122b-a10b-instruct-general': { protocol: 'openai', model: 'served-122b' },
};

const enhanced =
  'Replace the sky with a deep purple dusk gradient, keeping the skyline and its lighting unchanged.';

function answerByPath(call: UpstreamCall): CannedReply {
  if (call.path === '/v1/chat/completions') {
    return {
      body: {
        choices: [{ message: { role: 'assistant', content: enhanced } }],
        usage: { prompt_tokens: 60, completion_tokens: 21 },
      },
    };
  }
  return {
    body: {
      created: 1,
      data: [{ b64_json: 'UklGRg==' }],
      usage: {
        input_tokens: 300,
        output_tokens: 1000,
        total_tokens: 1300,
        input_tokens_details: { text_tokens: 12, image_tokens: 288 },
      },
    },
  };
}

const photo = toDataUrl('image/png', pngBytes(800, 600));
const second = toDataUrl('image/jpeg', jpegBytes(640, 480, { appBytes: 20_000 }));
const request = {
  model: 'alpha-image-edit',
  prompt: 'make the sky purple',
  images: [{ image_url: photo }],
  output_format: 'webp',
  quality: 'standard',
  size: '1024x768',
};

async function failure(promise: Promise<HandlerResult>) {
  try {
    await promise;
  } catch (error) {
    if (isGatewayError(error))
      return { status: error.status, code: error.code, param: error.param };
    throw error;
  }
  throw new Error('expected a failure');
}

describe('imageEditsHandler', () => {
  it('forwards the images to /v1/images/edits and leaves the ignored fields, the mask among them, behind', async () => {
    const upstream = fakeUpstream(targets, answerByPath);
    const mask = toDataUrl('image/png', pngBytes(800, 600));
    const body = {
      ...request,
      images: [{ image_url: photo }, { image_url: second }],
      mask: { image_url: mask },
      input_fidelity: 'high',
      background: 'auto',
      user: 'u',
    };
    const result = await imageEditsHandler(jsonInput(body), testContext({ upstream }));

    expect(upstream.calls).toHaveLength(1);
    expect(upstream.calls[0]).toMatchObject({
      modelId: 'alpha-image-edit',
      path: '/v1/images/edits',
      stream: false,
    });
    expect(upstream.calls[0]?.body).toEqual({
      model: 'served-edit',
      prompt: 'make the sky purple',
      n: 1,
      size: '1024x768',
      quality: 'medium',
      output_format: 'webp',
      response_format: 'b64_json',
      images: [{ image_url: photo }, { image_url: second }],
    });
    if (result.kind !== 'json') throw new Error('expected JSON');
    expect(JSON.parse(bodyText(result.body))).toMatchObject({
      data: [{ b64_json: 'UklGRg==' }],
      usage: {
        total_tokens: 1300,
        input_tokens: 300,
        output_tokens: 1000,
        input_tokens_details: { text_tokens: 12, image_tokens: 288 },
      },
      output_format: 'webp',
      quality: 'medium',
      size: '1024x768',
    });
    expect(result.meta).toMatchObject({
      model: 'alpha-image-edit',
      inputTokens: 300,
      outputTokens: 1000,
    });
  });

  it('answers stream: true, background: true, output_compression: 150 and a file_id mask with the JSON result, none of them forwarded', async () => {
    const upstream = fakeUpstream(targets, answerByPath);
    const odd = {
      stream: true,
      background: true,
      output_compression: 150,
      mask: { file_id: 'file-1' },
      input_fidelity: 7,
      partial_images: 3,
      moderation: 'low',
      user: 'u',
    };
    const result = await imageEditsHandler(
      jsonInput({ ...request, images: [{ image_url: photo }], ...odd }),
      testContext({ upstream }),
    );
    expect(result.kind).toBe('json');
    if (result.kind !== 'json') return;
    expect(result.status).toBe(200);
    expect(JSON.parse(bodyText(result.body))).toMatchObject({
      data: [{ b64_json: 'UklGRg==' }],
      output_format: 'webp',
    });
    const sent = upstream.calls[0]?.body as Record<string, unknown>;
    for (const field of Object.keys(odd)) expect(sent, field).not.toHaveProperty(field);
  });

  it('rewrites the instruction on the text model first for image-pro-edit, then edits with it', async () => {
    const upstream = fakeUpstream(targets, answerByPath);
    const result = await imageEditsHandler(
      jsonInput({ ...request, model: 'image-pro-edit' }),
      testContext({ upstream }),
    );

    expect(upstream.calls.map((call) => [call.modelId, call.path])).toEqual([
      ['alpha35-122b-a10b-instruct-general', '/v1/chat/completions'],
      ['alpha-image-edit-pe', '/v1/images/edits'],
    ]);
    const enhancement = upstream.calls[0]?.body as {
      model: string;
      messages: Array<{ role: string; content: string }>;
    };
    expect(enhancement.model).toBe('served-122b');
    expect(enhancement.messages[0]?.content).toMatch(/image editing/);
    expect(enhancement.messages.at(-1)).toEqual({ role: 'user', content: 'make the sky purple' });
    expect(upstream.calls[1]?.body).toMatchObject({
      model: 'served-edit-pe',
      prompt: enhanced,
      images: [{ image_url: photo }],
    });
    expect(result.headers).toMatchObject({
      'x-infergate-prompt-enhancement-model': 'alpha35-122b-a10b-instruct-general',
      'x-infergate-prompt-enhancement-tokens': '60/21',
    });
  });

  const fields: ReadonlyArray<readonly [string, (value: string) => Record<string, unknown>]> = [
    ['images[0].image_url', (value) => ({ images: [{ image_url: value }] })],
    ['images[1].image_url', (value) => ({ images: [{ image_url: photo }, { image_url: value }] })],
    ['mask.image_url', (value) => ({ mask: { image_url: value } })],
  ];

  for (const [param, place] of fields) {
    it.each(ssrfImageValues)(
      `refuses %s in ${param} on both edit models without any upstream call (fault matrix row 8)`,
      async (value) => {
        for (const model of ['alpha-image-edit', 'image-pro-edit']) {
          const upstream = fakeUpstream(targets, answerByPath);
          expect(
            await failure(
              imageEditsHandler(
                jsonInput({ ...request, model, ...place(value) }),
                testContext({ upstream }),
              ),
            ),
          ).toMatchObject({
            status: 400,
            code: 'invalid_parameter',
            param,
          });
          expect(upstream.calls).toHaveLength(0);
        }
      },
    );
  }

  it('refuses a PNG of 4097x10 and a JPEG 5000 px wide, naming the field (fault matrix row 9)', async () => {
    const upstream = fakeUpstream(targets, answerByPath);
    const wide = toDataUrl('image/png', pngBytes(4097, 10));
    expect(
      await failure(
        imageEditsHandler(
          jsonInput({ ...request, images: [{ image_url: wide }] }),
          testContext({ upstream }),
        ),
      ),
    ).toMatchObject({
      status: 400,
      param: 'images[0].image_url',
    });
    const jpeg = toDataUrl('image/jpeg', jpegBytes(5000, 100));
    expect(
      await failure(
        imageEditsHandler(
          jsonInput({ ...request, images: [{ image_url: photo }, { image_url: jpeg }] }),
          testContext({ upstream }),
        ),
      ),
    ).toMatchObject({ status: 400, param: 'images[1].image_url' });
    expect(upstream.calls).toHaveLength(0);
  });

  it('refuses a truncated header and non-image bytes', async () => {
    const upstream = fakeUpstream(targets, answerByPath);
    const cut = toDataUrl('image/webp', webpLossyBytes(100, 100).subarray(0, 24));
    expect(
      await failure(
        imageEditsHandler(
          jsonInput({ ...request, images: [{ image_url: cut }] }),
          testContext({ upstream }),
        ),
      ),
    ).toMatchObject({
      status: 400,
      param: 'images[0].image_url',
    });
    const text = toDataUrl('image/png', new TextEncoder().encode('not a png at all'));
    expect(
      await failure(
        imageEditsHandler(
          jsonInput({ ...request, mask: { image_url: text } }),
          testContext({ upstream }),
        ),
      ),
    ).toMatchObject({
      status: 400,
      param: 'mask.image_url',
    });
    expect(upstream.calls).toHaveLength(0);
  });

  it('refuses generation models and a size over 2 MP', async () => {
    const upstream = fakeUpstream(targets, answerByPath);
    expect(
      await failure(
        imageEditsHandler(jsonInput({ ...request, model: 'image-pro' }), testContext({ upstream })),
      ),
    ).toMatchObject({
      status: 400,
      code: 'model_not_supported',
    });
    expect(
      await failure(
        imageEditsHandler(jsonInput({ ...request, size: '2048x1025' }), testContext({ upstream })),
      ),
    ).toMatchObject({
      status: 400,
      param: 'size',
    });
    expect(upstream.calls).toHaveLength(0);
  });
});

describe('imageEditsHandler with a multipart form', () => {
  const formInput = (parts: readonly FormPart[]) => ({
    ...jsonInput(''),
    body: undefined,
    form: parts,
  });
  const text = (name: string, value: string): FormPart => ({ kind: 'field', name, value });
  const file = (name: string, dataUrl: string): FormPart => {
    const [head = '', payload = ''] = dataUrl.split(',');
    const mediaType = head.slice('data:'.length, -';base64'.length);
    return { kind: 'file', name, dataUrl: new SplitDataUrl(mediaType, payload) };
  };

  it('sends the upstream exactly what the JSON form of the same request sends', async () => {
    const fromJson = fakeUpstream(targets, answerByPath);
    await imageEditsHandler(
      jsonInput({ ...request, images: [{ image_url: photo }, { image_url: second }], n: 1 }),
      testContext({ upstream: fromJson }),
    );
    const fromForm = fakeUpstream(targets, answerByPath);
    const result = await imageEditsHandler(
      formInput([
        file('image[]', photo),
        file('image[]', second),
        text('model', request.model),
        text('prompt', request.prompt),
        text('output_format', request.output_format),
        text('quality', request.quality),
        text('size', request.size),
        text('n', '1'),
      ]),
      testContext({ upstream: fromForm }),
    );
    expect(result.status).toBe(200);
    // The same JSON text: a form's images stay split data URLs until the upstream body is written.
    const sent = (upstream: typeof fromJson) =>
      upstream.calls.map((call) => [call.path, JSON.stringify(call.body)]);
    expect(sent(fromForm)).toEqual(sent(fromJson));
  });

  it('names the form field of a refused image, and a field of the wrong type', async () => {
    const upstream = fakeUpstream(targets, answerByPath);
    const fields = [
      text('model', request.model),
      text('prompt', request.prompt),
      text('output_format', 'png'),
      text('quality', 'low'),
      text('size', '16x16'),
    ];
    const mislabelled = toDataUrl('image/png', jpegBytes(8, 8));
    expect(
      await failure(
        imageEditsHandler(
          formInput([file('image[]', photo), file('image[]', mislabelled), ...fields]),
          testContext({ upstream }),
        ),
      ),
    ).toEqual({ status: 400, code: 'invalid_parameter', param: 'image[]' });
    expect(
      await failure(
        imageEditsHandler(
          formInput([file('image', photo), ...fields, text('n', 'one')]),
          testContext({ upstream }),
        ),
      ),
    ).toMatchObject({ status: 400, param: 'n' });
    expect(upstream.calls).toHaveLength(0);
  });
});
