import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../catalogue/default-catalogue.js';
import { resolveGatewayConfig } from '../config/resolve-gateway-config.js';
import { isGatewayError } from '../errors/gateway-error.js';
import { bodyText } from '../http/body-text.js';
import { pngBytes } from '../images/test-image-bytes.js';
import type { EventStreamResult, JsonResult } from '../ports/handler-types.js';
import { messagesCountTokensHandler } from './messages-count-tokens-handler.js';
import { messagesHandler } from './messages-handler.js';
import { fakeUpstream, jsonInput, testContext } from './test-ports.js';
import { textTargets, vllmCompletion } from './text-test-ports.js';

const textIds = [...defaultCatalogue.models.values()]
  .filter((entry) => entry.kind === 'text')
  .map((entry) => entry.id);

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isGatewayError(error))
      return { status: error.status, code: error.code, param: error.param };
    throw error;
  }
  throw new Error('expected a refusal');
}

function parsed(result: JsonResult | EventStreamResult): Record<string, unknown> {
  if (result.kind !== 'json') throw new Error('expected a JSON result');
  return JSON.parse(bodyText(result.body)) as Record<string, unknown>;
}

describe('messagesHandler', () => {
  const upstream = fakeUpstream(textTargets(textIds), () => ({ body: vllmCompletion() }));
  const context = testContext({
    upstream,
    config: resolveGatewayConfig({ limits: { body_text_bytes: 4096 } }, {}),
  });
  const call = (body: unknown) =>
    messagesHandler(jsonInput(body, { path: '/v1/messages' }), context);

  it('holds the text to limits.body_text_bytes (413), leaving base64 image data out of the count', async () => {
    const calls = upstream.calls.length;
    expect(
      await rejection(
        call({
          model: 'general-std',
          max_tokens: 16,
          messages: [{ role: 'user', content: 'x'.repeat(5000) }],
        }),
      ),
    ).toMatchObject({ status: 413, code: 'request_too_large' });
    // A real PNG header followed by padding: far over the text limit as base64, and still an image.
    const data = base64(new Uint8Array([...pngBytes(800, 600), ...new Uint8Array(20_000)]));
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data } };
    const answer = parsed(
      await call({
        model: 'general-std',
        max_tokens: 16,
        messages: [{ role: 'user', content: [image, { type: 'text', text: 'Describe it.' }] }],
      }),
    );
    expect(answer.type).toBe('message');
    expect(upstream.calls.length).toBe(calls + 1);
  });

  it('refuses an image that is not what its media_type says, naming its data', async () => {
    const image = {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: base64(new Uint8Array(64)) },
    };
    expect(
      await rejection(
        call({
          model: 'general-std',
          max_tokens: 16,
          messages: [{ role: 'user', content: [image] }],
        }),
      ),
    ).toMatchObject({ status: 400, param: 'messages[0].content[0].source.data' });
  });

  it('names a thinking setting the model overrides in x-infergate-ignored-params', async () => {
    const messages = [{ role: 'user', content: 'Hi' }];
    const enabled = { type: 'enabled', budget_tokens: 1024 };
    const plain = await call({ model: 'general-std', max_tokens: 16, thinking: enabled, messages });
    expect(plain.headers['x-infergate-ignored-params']).toBe('thinking');
    const thinking = await call({
      model: 'general-std-thinking',
      max_tokens: 16,
      thinking: enabled,
      messages,
    });
    expect(thinking.headers['x-infergate-ignored-params']).toBeUndefined();
  });
});

describe('messagesCountTokensHandler', () => {
  it('counts for the models the Messages API answers with, not an embedding model', async () => {
    const upstream = fakeUpstream(textTargets(textIds), () => ({ body: { tokens: [1, 2, 3] } }));
    const context = testContext({ upstream });
    const call = (model: string) =>
      messagesCountTokensHandler(
        jsonInput(
          { model, messages: [{ role: 'user', content: 'Hi' }] },
          { path: '/v1/messages/count_tokens' },
        ),
        context,
      );
    expect(parsed(await call('general-std'))).toEqual({ input_tokens: 3 });
    expect(upstream.calls.at(-1)?.path).toBe('/tokenize');
    expect(await rejection(call('gamma-m3'))).toMatchObject({
      status: 400,
      code: 'model_not_supported',
    });
  });
});
