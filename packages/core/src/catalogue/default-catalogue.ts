import type { Catalogue, ModelEntry, ModelKind, ReasoningPolicy } from './catalogue-types.js';
import { reasoningEfforts } from './catalogue-values.js';

// docs/design.md: 1M = 1,048,576 tokens, 256K = 262,144, 32K = 32,768, 8K = 8,192.
const ONE_M = 1_048_576;
const K256 = 262_144;
const K32 = 32_768;
const K8 = 8_192;

/** The dimensions /compat/v2/embed allows for alpha3-vl-embedding-8b (spec, POST /compat/v2/embed). */
export const alpha3VlDimensions = [
  128, 256, 384, 512, 768, 1024, 1536, 2048, 2560, 3072, 3584, 4096,
] as const;

/** The catalogue text model that rewrites prompts for the `-pe` image models (the spec's 122B model). */
export const promptEnhancementModel = 'alpha35-122b-a10b-instruct-general';

const textEndpoints = ['responses', 'chat', 'tokenize'] as const;
const textAndImage = ['text', 'image'] as const;

const configurableEffort: ReasoningPolicy['effort'] = {
  kind: 'configurable',
  allowed: reasoningEfforts,
  default: 'max',
};
const lockedLow: ReasoningPolicy['effort'] = { kind: 'locked', value: 'low' };

// An entry whose id and kind stay literal types, so that the ids can be typed by kind below.
type Entry<Id extends string, Kind extends ModelKind> = ModelEntry & { id: Id; kind: Kind };

function model<const Id extends string, const Kind extends ModelKind>(
  entry: Entry<Id, Kind>,
): Entry<Id, Kind> {
  return entry;
}

function text<const Id extends string>(
  id: Id,
  description: string,
  contextWindow: number,
  extra: Omit<Partial<ModelEntry>, 'id' | 'kind'> = {},
): Entry<Id, 'text'> {
  return {
    id,
    kind: 'text',
    description,
    contextWindow,
    inputModalities: textAndImage,
    serves: textEndpoints,
    ...extra,
  };
}

const models = [
  text(
    'beta53-flash-chat',
    'development-oriented model; thinking hidden; reasoning_effort configurable',
    ONE_M,
    {
      thinking: true,
      reasoning: { clearThinking: true, effort: configurableEffort },
    },
  ),
  text(
    'beta53-flash-chat-low',
    'development-oriented model; thinking hidden; reasoning_effort locked to low',
    ONE_M,
    {
      thinking: true,
      reasoning: { clearThinking: true, effort: lockedLow },
    },
  ),
  text(
    'beta53-flash-agent',
    'development-oriented model; thinking exposed; reasoning_effort configurable',
    ONE_M,
    {
      thinking: true,
      reasoning: { clearThinking: false, effort: configurableEffort },
    },
  ),
  text(
    'beta53-flash-agent-low',
    'development-oriented model; thinking exposed; reasoning_effort locked to low',
    ONE_M,
    {
      thinking: true,
      reasoning: { clearThinking: false, effort: lockedLow },
    },
  ),
  text('alpha35-122b-a10b-instruct-general', 'general purpose; full control of sampling', K256),
  text(
    'alpha35-122b-a10b-instruct-creative',
    'creative writing; sampling parameters enforced on the backend',
    K256,
    { backendEnforcedSampling: true },
  ),
  text('alpha35-122b-a10b-thinking-general', 'deep reasoning; full control of sampling', K256, {
    thinking: true,
  }),
  text(
    'alpha35-122b-a10b-thinking-coding',
    'coding with reasoning; sampling parameters enforced on the backend',
    K256,
    {
      thinking: true,
      backendEnforcedSampling: true,
    },
  ),
  text(
    'alpha36-35b-a3b-instruct',
    'lightweight general, text, code, vision; no thinking mode',
    K256,
  ),
  text('alpha36-35b-a3b-thinking-general', 'lightweight with thinking; thinking mode on', K256, {
    thinking: true,
  }),
  text(
    'alpha36-35b-a3b-thinking-coding',
    'lightweight coding with thinking; coding-optimized sampling enforced on the backend',
    K256,
    {
      thinking: true,
      backendEnforcedSampling: true,
    },
  ),
  model({
    id: 'alpha3-vl-embedding-8b',
    kind: 'embedding',
    description: 'multimodal embedding; 128 to 4096 dimensions, configurable',
    contextWindow: K32,
    inputModalities: textAndImage,
    dimensions: {
      kind: 'configurable',
      allowed: alpha3VlDimensions,
      min: 128,
      max: 4096,
      default: 4096,
    },
    serves: ['embeddings', 'compat-embed', 'tokenize'],
  }),
  model({
    id: 'gamma-m3',
    kind: 'embedding',
    description: 'text embedding; 1024 dimensions, fixed',
    contextWindow: K8,
    inputModalities: ['text'],
    dimensions: { kind: 'fixed', value: 1024 },
    serves: ['embeddings', 'tokenize'],
  }),
  model({
    id: 'gamma-reranker-v2-m3',
    kind: 'rerank',
    description: 'reranker',
    inputModalities: ['text'],
    serves: ['compat-rerank'],
  }),
  model({
    id: 'alpha-image',
    kind: 'image-generation',
    description: 'image generation',
    inputModalities: ['text'],
    serves: ['image-generations'],
  }),
  model({
    id: 'alpha-image-pe',
    kind: 'image-generation',
    description: 'image generation with prompt enhancement',
    inputModalities: ['text'],
    serves: ['image-generations'],
    promptEnhancement: { textModel: promptEnhancementModel },
  }),
  model({
    id: 'alpha-image-edit',
    kind: 'image-edit',
    description: 'image editing',
    inputModalities: ['text', 'image'],
    serves: ['image-edits'],
  }),
  model({
    id: 'alpha-image-edit-pe',
    kind: 'image-edit',
    description: 'image editing with prompt enhancement',
    inputModalities: ['text', 'image'],
    serves: ['image-edits'],
    promptEnhancement: { textModel: promptEnhancementModel },
  }),
];

const virtualModels = [
  ['coding-max', 'beta53-flash-agent-low'],
  ['coding-max-thinking', 'beta53-flash-agent'],
  ['general-max', 'beta53-flash-chat-low'],
  ['general-max-thinking', 'beta53-flash-chat'],
  ['coding-pro-thinking', 'alpha35-122b-a10b-thinking-coding'],
  ['general-pro', 'alpha35-122b-a10b-instruct-general'],
  ['general-pro-thinking', 'alpha35-122b-a10b-thinking-general'],
  ['coding-std-thinking', 'alpha36-35b-a3b-thinking-coding'],
  ['general-std', 'alpha36-35b-a3b-instruct'],
  ['general-std-thinking', 'alpha36-35b-a3b-thinking-general'],
  ['image-pro', 'alpha-image-pe'],
  ['image-pro-edit', 'alpha-image-edit-pe'],
] as const satisfies ReadonlyArray<readonly [string, DefaultCatalogueModelId]>;

/** The default catalogue's model ids of one kind (all kinds by default), as literal types: the SDK's model ids. */
export type DefaultCatalogueModelId<Kind extends ModelKind = ModelKind> = Extract<
  (typeof models)[number],
  { kind: Kind }
>['id'];

/** The default virtual model ids that map onto a model of one kind (all kinds by default). */
export type DefaultVirtualModelId<Kind extends ModelKind = ModelKind> = Extract<
  (typeof virtualModels)[number],
  readonly [string, DefaultCatalogueModelId<Kind>]
>[0];

/** The spec's catalogue and default virtual models, before configuration extends or overrides them. */
export const defaultCatalogue: Catalogue = {
  models: new Map(models.map((entry) => [entry.id, entry])),
  virtualModels: new Map(virtualModels),
  virtualRoutes: new Map(),
};
