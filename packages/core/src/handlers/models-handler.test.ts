import { describe, expect, it } from 'vitest';
import { fakeGatewayDeps, handlerInput } from '../../test/fake-gateway-deps.js';
import { isGatewayError } from '../errors/gateway-error.js';
import { listModelsHandler, retrieveModelHandler } from './models-handler.js';
import { bodyText } from '../http/body-text.js';

// The spec's catalogue tables and its virtual-model table.
const catalogueIds = [
  'beta53-flash-chat',
  'beta53-flash-chat-low',
  'beta53-flash-agent',
  'beta53-flash-agent-low',
  'alpha35-122b-a10b-instruct-general',
  'alpha35-122b-a10b-instruct-creative',
  'alpha35-122b-a10b-thinking-general',
  'alpha35-122b-a10b-thinking-coding',
  'alpha36-35b-a3b-instruct',
  'alpha36-35b-a3b-thinking-general',
  'alpha36-35b-a3b-thinking-coding',
  'alpha3-vl-embedding-8b',
  'gamma-m3',
  'gamma-reranker-v2-m3',
  'alpha-image',
  'alpha-image-pe',
  'alpha-image-edit',
  'alpha-image-edit-pe',
];
const virtualIds: Record<string, string> = {
  'coding-max': 'beta53-flash-agent-low',
  'coding-max-thinking': 'beta53-flash-agent',
  'general-max': 'beta53-flash-chat-low',
  'general-max-thinking': 'beta53-flash-chat',
  'coding-pro-thinking': 'alpha35-122b-a10b-thinking-coding',
  'general-pro': 'alpha35-122b-a10b-instruct-general',
  'general-pro-thinking': 'alpha35-122b-a10b-thinking-general',
  'coding-std-thinking': 'alpha36-35b-a3b-thinking-coding',
  'general-std': 'alpha36-35b-a3b-instruct',
  'general-std-thinking': 'alpha36-35b-a3b-thinking-general',
  'image-pro': 'alpha-image-pe',
  'image-pro-edit': 'alpha-image-edit-pe',
};

interface Model {
  id: string;
  object: string;
  created: number;
  owned_by: string;
  kind: string;
  context_window: number | null;
  dimensions: unknown;
  serves: string[];
  maps_to?: string;
}

type HandlerResult = Awaited<ReturnType<typeof listModelsHandler>>;

function bodyOf(result: HandlerResult): unknown {
  if (result.kind !== 'json') throw new Error('expected JSON');
  expect(result.status).toBe(200);
  return JSON.parse(bodyText(result.body));
}

describe('GET /v1/models', () => {
  it('lists every catalogue and virtual id of the spec in the OpenAI list shape', async () => {
    const deps = fakeGatewayDeps();
    const body = bodyOf(
      await listModelsHandler(handlerInput({ path: '/v1/models' }), {
        ...deps,
        identity: { name: 'key-1' },
      }),
    ) as {
      object: string;
      data: Model[];
    };
    expect(body.object).toBe('list');
    expect(body.data.map((model) => model.id).sort()).toEqual(
      [...catalogueIds, ...Object.keys(virtualIds)].sort(),
    );
    for (const model of body.data) {
      expect(model).toMatchObject({ object: 'model', owned_by: 'infergate' });
      expect(Number.isInteger(model.created)).toBe(true);
    }
  });

  it('uses one fixed created time, not the time of the request', async () => {
    const deps = fakeGatewayDeps();
    const first = bodyOf(
      await listModelsHandler(handlerInput(), { ...deps, identity: undefined }),
    ) as { data: Model[] };
    deps.clock = { now: () => 1_900_000_000_000 };
    const second = bodyOf(
      await listModelsHandler(handlerInput(), { ...deps, identity: undefined }),
    ) as { data: Model[] };
    expect(new Set([...first.data, ...second.data].map((model) => model.created)).size).toBe(1);
  });

  it('describes each model with its kind, context window, dimensions and endpoints (docs/design.md context windows)', async () => {
    const body = bodyOf(
      await listModelsHandler(handlerInput(), { ...fakeGatewayDeps(), identity: undefined }),
    ) as { data: Model[] };
    const byId = new Map(body.data.map((model) => [model.id, model]));
    expect(byId.get('beta53-flash-chat')).toMatchObject({
      kind: 'text',
      context_window: 1_048_576,
      dimensions: null,
    });
    expect(byId.get('alpha36-35b-a3b-instruct')?.context_window).toBe(262_144);
    expect(byId.get('gamma-m3')).toMatchObject({
      kind: 'embedding',
      context_window: 8_192,
      dimensions: { default: 1024, allowed: [1024] },
    });
    expect(byId.get('alpha3-vl-embedding-8b')).toMatchObject({
      context_window: 32_768,
      dimensions: { allowed: [128, 256, 384, 512, 768, 1024, 1536, 2048, 2560, 3072, 3584, 4096] },
    });
    expect(byId.get('gamma-reranker-v2-m3')).toMatchObject({
      kind: 'rerank',
      context_window: null,
      serves: ['compat-rerank'],
    });
    expect(byId.get('gamma-m3')?.maps_to).toBeUndefined();
  });

  it('names the catalogue id each virtual model maps to', async () => {
    const body = bodyOf(
      await listModelsHandler(handlerInput(), { ...fakeGatewayDeps(), identity: undefined }),
    ) as { data: Model[] };
    for (const [id, target] of Object.entries(virtualIds)) {
      const model = body.data.find((entry) => entry.id === id);
      expect(model?.maps_to).toBe(target);
    }
    expect(body.data.find((entry) => entry.id === 'image-pro')?.kind).toBe('image-generation');
  });

  it('includes models and virtual models added by configuration', async () => {
    const deps = fakeGatewayDeps({
      file: {
        models: {
          'alpha35-397b-a17b-instruct-general': {
            kind: 'text',
            context: 262144,
            serves: ['responses', 'chat'],
          },
        },
        virtual_models: { 'my-default': 'alpha36-35b-a3b-instruct' },
      },
    });
    const body = bodyOf(
      await listModelsHandler(handlerInput(), { ...deps, identity: undefined }),
    ) as { data: Model[] };
    expect(body.data.map((model) => model.id)).toEqual(
      expect.arrayContaining(['alpha35-397b-a17b-instruct-general', 'my-default']),
    );
  });

  it('shows a key restricted to some models only those models', async () => {
    const body = bodyOf(
      await listModelsHandler(handlerInput(), {
        ...fakeGatewayDeps(),
        identity: { name: 'ci', models: ['gamma-m3', 'general-std'] },
      }),
    ) as {
      data: Model[];
    };
    expect(body.data.map((model) => model.id)).toEqual(['gamma-m3', 'general-std']);
  });
});

describe('GET /v1/models/{id}', () => {
  it('returns one catalogue model', async () => {
    const body = bodyOf(
      await retrieveModelHandler(handlerInput({ params: { id: 'gamma-m3' } }), {
        ...fakeGatewayDeps(),
        identity: undefined,
      }),
    ) as Model;
    expect(body).toMatchObject({
      id: 'gamma-m3',
      object: 'model',
      owned_by: 'infergate',
      kind: 'embedding',
    });
  });

  it('returns a virtual model with its catalogue id', async () => {
    const body = bodyOf(
      await retrieveModelHandler(handlerInput({ params: { id: 'coding-max' } }), {
        ...fakeGatewayDeps(),
        identity: undefined,
      }),
    ) as Model;
    expect(body).toMatchObject({
      id: 'coding-max',
      maps_to: 'beta53-flash-agent-low',
      context_window: 1_048_576,
    });
  });

  it.each([
    ['an unknown id', 'gamma-m4', undefined],
    ['a model the key may not use', 'gamma-m3', ['general-std']],
  ])('answers 404 model_not_found for %s', async (_name, id, models) => {
    const identity = models ? { name: 'ci', models } : undefined;
    const error = await retrieveModelHandler(handlerInput({ params: { id } }), {
      ...fakeGatewayDeps(),
      identity,
    }).catch((caught: unknown) => caught);
    expect(isGatewayError(error) && { status: error.status, code: error.code }).toEqual({
      status: 404,
      code: 'model_not_found',
    });
  });
});
