import { describe, expect, it } from 'vitest';
import { resolveGatewayConfig } from '../config/resolve-gateway-config.js';
import type { ModelEntry } from '../catalogue/catalogue-types.js';
import type { UpstreamTarget } from '../ports/ports.js';
import { tokenizeHandler } from './tokenize-handler.js';
import { fakeUpstream, jsonInput, testContext } from './test-ports.js';
import type { UpstreamResponder } from './test-ports.js';
import { bodyText } from '../http/body-text.js';

// vLLM reports its own max_model_len, which may differ from the catalogue's window.
const vllm: UpstreamResponder = () => ({
  body: { count: 3, max_model_len: 4096, tokens: [101, 7592, 102], token_strs: null },
});
// TEI's /tokenize: one list of token objects per input.
const tei: UpstreamResponder = () => ({
  body: [
    [
      { id: 0, text: '<s>', special: true, start: null, stop: null },
      { id: 33600, text: 'hi', special: false, start: 0, stop: 2 },
    ],
  ],
});

const allTargets = (protocol: UpstreamTarget['protocol']): Record<string, UpstreamTarget> => ({
  'gamma-m3': { protocol, model: 'served-gamma' },
  'alpha3-vl-embedding-8b': { protocol, model: 'served-alpha3' },
  'alpha36-35b-a3b-instruct': { protocol, model: 'served-a36' },
  'beta53-flash-chat-low': { protocol, model: 'served-b53' },
});

async function run(
  body: Record<string, unknown>,
  respond: UpstreamResponder = vllm,
  protocol: UpstreamTarget['protocol'] = 'openai',
) {
  const upstream = fakeUpstream(allTargets(protocol), respond);
  const result = await tokenizeHandler(jsonInput(body), testContext({ upstream }));
  if (result.kind !== 'json') throw new Error('expected JSON');
  return {
    result,
    body: JSON.parse(bodyText(result.body)) as Record<string, unknown>,
    calls: upstream.calls,
  };
}

describe('tokenizeHandler', () => {
  it('calls vLLM /tokenize in completion form and answers count, max_model_len, tokens and token_strs null', async () => {
    const { body, calls, result } = await run({ model: 'gamma-m3', prompt: 'hi there' });
    expect(calls[0]).toMatchObject({
      modelId: 'gamma-m3',
      path: '/tokenize',
      stream: false,
      body: { model: 'served-gamma', prompt: 'hi there' },
    });
    expect(body).toEqual({
      count: 3,
      max_model_len: 8_192,
      tokens: [101, 7592, 102],
      token_strs: null,
    });
    expect(result.meta).toEqual({ model: 'gamma-m3', endpoint: 'fake-1' });
  });

  it("reports the catalogue's context window of each model (docs/design.md: 8K, 32K, 256K, 1M)", async () => {
    const expected: Record<string, number> = {
      'gamma-m3': 8_192,
      'alpha3-vl-embedding-8b': 32_768,
      'alpha36-35b-a3b-instruct': 262_144,
      'beta53-flash-chat-low': 1_048_576,
    };
    for (const [model, window] of Object.entries(expected)) {
      const { body } = await run({ model, prompt: 'x' });
      expect(body.max_model_len, model).toBe(window);
    }
  });

  it('resolves a virtual id to its catalogue model', async () => {
    const { body, calls } = await run({ model: 'general-max', prompt: 'x' });
    expect(calls[0]).toMatchObject({
      modelId: 'beta53-flash-chat-low',
      body: { model: 'served-b53' },
    });
    expect(body.max_model_len).toBe(1_048_576);
  });

  it('forwards add_special_tokens only when the client set it', async () => {
    const { calls } = await run({ model: 'gamma-m3', prompt: 'x', add_special_tokens: false });
    expect(calls[0]?.body).toEqual({
      model: 'served-gamma',
      prompt: 'x',
      add_special_tokens: false,
    });
  });

  it('calls TEI /tokenize with {inputs} and reads the token ids', async () => {
    const { body, calls } = await run(
      { model: 'gamma-m3', prompt: 'hi', add_special_tokens: true },
      tei,
      'tei',
    );
    expect(calls[0]?.body).toEqual({ inputs: 'hi', add_special_tokens: true });
    expect(body).toEqual({ count: 2, max_model_len: 8_192, tokens: [0, 33600], token_strs: null });
  });

  it('is a 502 for an answer of the wrong shape and passes upstream 4xx through', async () => {
    await expect(run({ model: 'gamma-m3', prompt: 'x' }, tei)).rejects.toMatchObject({
      status: 502,
    });
    await expect(
      run({ model: 'gamma-m3', prompt: 'x' }, () => ({
        status: 404,
        body: {
          error: { message: 'The model `x` does not exist.', type: 'NotFoundError', code: 404 },
        },
      })),
    ).rejects.toMatchObject({ status: 404, code: 'upstream_rejected' });
  });

  it('refuses models that do not tokenize and keys that may not use the model', async () => {
    await expect(run({ model: 'gamma-reranker-v2-m3', prompt: 'x' })).rejects.toMatchObject({
      status: 400,
      code: 'model_not_supported',
    });
    const upstream = fakeUpstream(allTargets('openai'), vllm);
    const context = testContext({
      upstream,
      identity: { name: 'k', models: ['alpha3-vl-embedding-8b'] },
    });
    await expect(
      tokenizeHandler(jsonInput({ model: 'gamma-m3', prompt: 'x' }), context),
    ).rejects.toMatchObject({ status: 403, code: 'model_not_allowed' });
    expect(upstream.calls).toHaveLength(0);
  });

  it("falls back to the upstream's max_model_len only for a configured model without a context window", async () => {
    const custom: ModelEntry = {
      id: 'custom-text',
      kind: 'text',
      description: '',
      inputModalities: ['text'],
      serves: ['tokenize'],
    };
    const base = resolveGatewayConfig(undefined, {});
    const config = {
      ...base,
      catalogue: {
        models: new Map([[custom.id, custom]]),
        virtualModels: new Map<string, string>(),
        virtualRoutes: new Map(),
      },
    };
    const viaVllm = await tokenizeHandler(
      jsonInput({ model: 'custom-text', prompt: 'x' }),
      testContext({
        config,
        upstream: fakeUpstream({ 'custom-text': { protocol: 'openai', model: 'c' } }, vllm),
      }),
    );
    expect(JSON.parse(viaVllm.kind === 'json' ? bodyText(viaVllm.body) : '{}')).toMatchObject({
      max_model_len: 4096,
    });
    const viaTei = tokenizeHandler(
      jsonInput({ model: 'custom-text', prompt: 'x' }),
      testContext({
        config,
        upstream: fakeUpstream({ 'custom-text': { protocol: 'tei', model: 'c' } }, tei),
      }),
    );
    await expect(viaTei).rejects.toMatchObject({ status: 502 });
  });

  it('is a 502 when the model sits on an upstream whose protocol has no tokenizer', async () => {
    await expect(run({ model: 'gamma-m3', prompt: 'x' }, vllm, 'cohere')).rejects.toMatchObject({
      status: 502,
    });
  });
});
