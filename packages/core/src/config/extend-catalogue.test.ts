import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-file-schema.js';
import { defaultCatalogue } from '../catalogue/default-catalogue.js';
import { extendCatalogue } from './extend-catalogue.js';

describe('extendCatalogue', () => {
  it('adds a new text entry (the spec example alpha35-397b-a17b-instruct-general)', () => {
    const catalogue = extendCatalogue(
      defaultCatalogue,
      {
        'alpha35-397b-a17b-instruct-general': {
          kind: 'text',
          context: 262144,
          serves: ['responses', 'chat'],
        },
      },
      undefined,
    );
    expect(catalogue.models.get('alpha35-397b-a17b-instruct-general')).toMatchObject({
      id: 'alpha35-397b-a17b-instruct-general',
      kind: 'text',
      contextWindow: 262144,
      serves: ['responses', 'chat'],
      inputModalities: ['text'],
    });
    expect(catalogue.models.size).toBe(defaultCatalogue.models.size + 1);
  });

  it('gives a new entry the endpoints of its kind when serves is not set', () => {
    const catalogue = extendCatalogue(
      defaultCatalogue,
      { 'my-embed': { kind: 'embedding', context: 512, dimensions: 384 } },
      undefined,
    );
    expect(catalogue.models.get('my-embed')).toMatchObject({
      serves: ['embeddings', 'tokenize'],
      dimensions: { kind: 'fixed', value: 384 },
    });
  });

  it('merges an override over the existing entry', () => {
    const catalogue = extendCatalogue(
      defaultCatalogue,
      { 'gamma-m3': { context: 16384, description: 'bigger' } },
      undefined,
    );
    const entry = catalogue.models.get('gamma-m3');
    expect(entry).toMatchObject({
      kind: 'embedding',
      contextWindow: 16384,
      description: 'bigger',
      dimensions: { kind: 'fixed', value: 1024 },
      serves: ['embeddings', 'tokenize'],
    });
  });

  it('turns a dimension list into a configurable range with the largest as default', () => {
    const catalogue = extendCatalogue(
      defaultCatalogue,
      { 'gamma-m3': { dimensions: { allowed: [1024, 256, 512] } } },
      undefined,
    );
    expect(catalogue.models.get('gamma-m3')?.dimensions).toEqual({
      kind: 'configurable',
      allowed: [256, 512, 1024],
      min: 256,
      max: 1024,
      default: 1024,
    });
  });

  it('maps reasoning settings to a locked or configurable policy', () => {
    const catalogue = extendCatalogue(
      defaultCatalogue,
      {
        'my-think': {
          kind: 'text',
          context: 1000,
          reasoning: { clear_thinking: false, effort: 'low' },
        },
      },
      undefined,
    );
    expect(catalogue.models.get('my-think')?.reasoning).toEqual({
      clearThinking: false,
      effort: { kind: 'locked', value: 'low' },
    });
  });

  it('leaves the base catalogue untouched', () => {
    extendCatalogue(defaultCatalogue, { 'gamma-m3': { context: 1 } }, { 'my-default': 'gamma-m3' });
    expect(defaultCatalogue.models.get('gamma-m3')?.contextWindow).toBe(8192);
    expect(defaultCatalogue.virtualModels.has('my-default')).toBe(false);
  });

  it('adds virtual models and may re-point a default one', () => {
    const catalogue = extendCatalogue(defaultCatalogue, undefined, {
      'my-default': 'alpha36-35b-a3b-instruct',
      'general-std': 'alpha36-35b-a3b-thinking-general',
    });
    expect(catalogue.virtualModels.get('my-default')).toBe('alpha36-35b-a3b-instruct');
    expect(catalogue.virtualModels.get('general-std')).toBe('alpha36-35b-a3b-thinking-general');
    expect(catalogue.virtualModels.get('coding-max')).toBe('beta53-flash-agent-low');
  });

  it('lets a virtual model target an entry added in the same file', () => {
    const catalogue = extendCatalogue(
      defaultCatalogue,
      { 'big-model': { kind: 'text', context: 262144 } },
      { big: 'big-model' },
    );
    expect(catalogue.virtualModels.get('big')).toBe('big-model');
  });

  const failures: Array<
    [string, Parameters<typeof extendCatalogue>[1], Parameters<typeof extendCatalogue>[2], string]
  > = [
    [
      'a new entry without kind',
      { 'new-model': { context: 1000 } },
      undefined,
      'models.new-model.kind: required for a model that is not in the catalogue',
    ],
    [
      'a text entry without context',
      { 'new-model': { kind: 'text' } },
      undefined,
      'models.new-model.context: required for text models',
    ],
    [
      'an embedding entry without dimensions',
      { 'new-embed': { kind: 'embedding', context: 10 } },
      undefined,
      'models.new-embed.dimensions: required for an embedding model',
    ],
    [
      'dimensions on a text model',
      { 'gamma-m3x': { kind: 'text', context: 10, dimensions: 8 } },
      undefined,
      'models.gamma-m3x.dimensions: only embedding models',
    ],
    [
      'an endpoint the kind cannot serve',
      { 'gamma-m3': { serves: ['embeddings', 'chat'] } },
      undefined,
      'models.gamma-m3.serves[1]: embedding models cannot serve chat',
    ],
    [
      'a default outside the allowed list',
      { 'gamma-m3': { dimensions: { allowed: [256], default: 512 } } },
      undefined,
      'models.gamma-m3.dimensions.default',
    ],
    [
      'reasoning on an image model',
      { 'alpha-image': { reasoning: { clear_thinking: true, effort: 'low' } } },
      undefined,
      'models.alpha-image.reasoning',
    ],
    [
      'prompt enhancement by a non-text model',
      { 'alpha-image-pe': { prompt_enhancement: { text_model: 'gamma-m3' } } },
      undefined,
      'models.alpha-image-pe.prompt_enhancement.text_model',
    ],
    [
      'a catalogue entry named like a virtual model',
      { 'general-std': { kind: 'text', context: 10 } },
      undefined,
      "models.general-std: 'general-std' is a virtual model id",
    ],
    [
      'a virtual model to an unknown target',
      undefined,
      { mine: 'alpha99' },
      "virtual_models.mine: unknown catalogue model 'alpha99'",
    ],
    [
      'a virtual model to a virtual model',
      undefined,
      { mine: 'general-std' },
      "virtual_models.mine: 'general-std' is itself a virtual model; map to its catalogue id 'alpha36-35b-a3b-instruct'",
    ],
    [
      'a virtual id equal to a catalogue id',
      undefined,
      { 'gamma-m3': 'alpha-image' },
      'virtual_models.gamma-m3: ',
    ],
    [
      'a list naming an unknown model',
      undefined,
      { mine: { models: ['alpha36-35b-a3b-instruct', 'alpha99'] } },
      "virtual_models.mine.models[1]: unknown catalogue model 'alpha99'",
    ],
    [
      'a list naming a virtual model (a loop, or a chain)',
      undefined,
      { mine: { models: ['alpha36-35b-a3b-instruct', 'coding-max'] } },
      "virtual_models.mine.models[1]: 'coding-max' is itself a virtual model",
    ],
    [
      'a list of models of different kinds',
      undefined,
      { mine: { models: ['alpha36-35b-a3b-instruct', 'gamma-m3'] } },
      "virtual_models.mine.models[1]: 'gamma-m3' is of kind embedding; 'alpha36-35b-a3b-instruct' is of kind text",
    ],
    [
      'a list with a model that does not serve what the first serves',
      { 'chat-only': { kind: 'text', context: 8192, serves: ['chat'] } },
      { mine: { models: ['alpha36-35b-a3b-instruct', 'chat-only'] } },
      "virtual_models.mine.models[1]: 'chat-only' does not serve responses, tokenize",
    ],
    [
      'a list naming a model twice',
      undefined,
      { mine: { models: ['alpha36-35b-a3b-instruct', 'alpha36-35b-a3b-instruct'] } },
      "virtual_models.mine.models[1]: 'alpha36-35b-a3b-instruct' is listed twice",
    ],
    [
      'weights over a model not in the list',
      undefined,
      { mine: { models: ['alpha36-35b-a3b-instruct'], weights: { 'beta53-flash-chat': 1 } } },
      "virtual_models.mine.weights.beta53-flash-chat: 'beta53-flash-chat' is not in this virtual model's models",
    ],
    [
      'weights that are all 0',
      undefined,
      {
        mine: { models: ['alpha36-35b-a3b-instruct'], weights: { 'alpha36-35b-a3b-instruct': 0 } },
      },
      'virtual_models.mine.weights: at least one weight must be above 0',
    ],
  ];

  it('keeps a list in order, with the default failures and the first model as what it maps to', () => {
    const catalogue = extendCatalogue(defaultCatalogue, undefined, {
      'coding-max': { models: ['beta53-flash-agent-low', 'alpha35-122b-a10b-thinking-coding'] },
      canary: {
        models: ['alpha36-35b-a3b-instruct', 'alpha35-122b-a10b-instruct-general'],
        on: ['rate_limited', 'context_length'],
        weights: { 'alpha36-35b-a3b-instruct': 90, 'alpha35-122b-a10b-instruct-general': 10 },
      },
    });
    expect(catalogue.virtualModels.get('coding-max')).toBe('beta53-flash-agent-low');
    expect(catalogue.virtualRoutes.get('coding-max')).toEqual({
      models: ['beta53-flash-agent-low', 'alpha35-122b-a10b-thinking-coding'],
      on: new Set(['connection', 'timeout', 'rate_limited', 'unavailable', 'model_not_configured']),
    });
    expect(catalogue.virtualRoutes.get('canary')).toEqual({
      models: ['alpha36-35b-a3b-instruct', 'alpha35-122b-a10b-instruct-general'],
      on: new Set(['rate_limited', 'context_length']),
      weights: [
        { model: 'alpha36-35b-a3b-instruct', weight: 90 },
        { model: 'alpha35-122b-a10b-instruct-general', weight: 10 },
      ],
    });
    // The one-string form re-points a virtual id and drops the list it had.
    const repointed = extendCatalogue(catalogue, undefined, { canary: 'beta53-flash-chat' });
    expect(repointed.virtualModels.get('canary')).toBe('beta53-flash-chat');
    expect(repointed.virtualRoutes.has('canary')).toBe(false);
  });

  it.each(failures)('refuses %s, naming the entry', (_name, models, virtualModels, message) => {
    const run = () => extendCatalogue(defaultCatalogue, models, virtualModels);
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(message);
  });
});
