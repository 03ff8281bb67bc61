import { ConfigError } from './config-file-schema.js';
import type { ModelConfig, VirtualModelConfig } from './config-file-schema.js';
import { formatParamPath } from '../schemas/parse-request-body.js';
import type {
  Catalogue,
  EmbeddingDimensions,
  Endpoint,
  FallbackReason,
  ModelEntry,
  ModelKind,
  ReasoningPolicy,
  VirtualRoute,
} from '../catalogue/catalogue-types.js';
import { defaultFallbackReasons, reasoningEfforts } from '../catalogue/catalogue-values.js';

/** The endpoints a model of each kind can serve at all; `serves` must stay within these. */
export const endpointsForKind: Readonly<Record<ModelKind, readonly Endpoint[]>> = {
  text: ['responses', 'chat', 'tokenize'],
  embedding: ['embeddings', 'compat-embed', 'tokenize'],
  rerank: ['compat-rerank'],
  'image-generation': ['image-generations'],
  'image-edit': ['image-edits'],
};

// What a new entry serves when the file does not say. compat-embed is left out for embeddings:
// it only makes sense for a multimodal model, which the operator has to state.
const defaultServes: Readonly<Record<ModelKind, readonly Endpoint[]>> = {
  text: ['responses', 'chat', 'tokenize'],
  embedding: ['embeddings', 'tokenize'],
  rerank: ['compat-rerank'],
  'image-generation': ['image-generations'],
  'image-edit': ['image-edits'],
};

function fail(path: readonly PropertyKey[], detail: string): never {
  throw new ConfigError(formatParamPath(path), detail);
}

function toDimensions(
  value: NonNullable<ModelConfig['dimensions']>,
  path: readonly PropertyKey[],
): EmbeddingDimensions {
  if (typeof value === 'number') return { kind: 'fixed', value };
  const allowed = [...new Set(value.allowed)].sort((a, b) => a - b);
  const min = allowed[0] as number;
  const max = allowed[allowed.length - 1] as number;
  const fallback = value.default ?? max;
  if (!allowed.includes(fallback))
    fail([...path, 'default'], `${fallback} is not in the allowed list`);
  return { kind: 'configurable', allowed, min, max, default: fallback };
}

function toReasoning(value: NonNullable<ModelConfig['reasoning']>): ReasoningPolicy {
  const effort: ReasoningPolicy['effort'] =
    value.effort === 'configurable'
      ? { kind: 'configurable', allowed: reasoningEfforts, default: 'max' }
      : { kind: 'locked', value: value.effort };
  return { clearThinking: value.clear_thinking, effort };
}

/** The configured fields of one entry merged over the existing entry (or a new one). */
function mergeEntry(id: string, existing: ModelEntry | undefined, config: ModelConfig): ModelEntry {
  const path = ['models', id];
  const kind = config.kind ?? existing?.kind;
  if (kind === undefined)
    fail([...path, 'kind'], 'required for a model that is not in the catalogue');
  // A changed kind makes the old endpoint list meaningless, so it falls back to the new kind's default.
  const kindChanged = existing !== undefined && existing.kind !== kind;
  const entry: ModelEntry = {
    ...(existing ?? {
      id,
      description: `${kind} model added by configuration`,
      inputModalities: kind === 'image-edit' ? ['text', 'image'] : ['text'],
    }),
    id,
    kind,
    serves: config.serves ?? (existing && !kindChanged ? existing.serves : defaultServes[kind]),
  };
  if (config.description !== undefined) entry.description = config.description;
  if (config.context !== undefined) entry.contextWindow = config.context;
  if (config.modalities !== undefined) entry.inputModalities = [...new Set(config.modalities)];
  if (config.dimensions !== undefined)
    entry.dimensions = toDimensions(config.dimensions, [...path, 'dimensions']);
  if (config.thinking !== undefined) entry.thinking = config.thinking;
  if (config.backend_enforced_sampling !== undefined)
    entry.backendEnforcedSampling = config.backend_enforced_sampling;
  if (config.reasoning !== undefined) entry.reasoning = toReasoning(config.reasoning);
  if (config.prompt_enhancement !== undefined)
    entry.promptEnhancement = { textModel: config.prompt_enhancement.text_model };
  return entry;
}

function checkEntry(entry: ModelEntry, models: ReadonlyMap<string, ModelEntry>): void {
  const path = ['models', entry.id];
  const allowed = endpointsForKind[entry.kind];
  entry.serves.forEach((endpoint, index) => {
    if (!allowed.includes(endpoint))
      fail(
        [...path, 'serves', index],
        `${entry.kind} models cannot serve ${endpoint}; expected one of ${allowed.join('|')}`,
      );
  });
  if ((entry.kind === 'text' || entry.kind === 'embedding') && entry.contextWindow === undefined)
    fail([...path, 'context'], `required for ${entry.kind} models`);
  if (entry.kind === 'embedding' && entry.dimensions === undefined)
    fail([...path, 'dimensions'], 'required for an embedding model');
  if (entry.kind !== 'embedding' && entry.dimensions !== undefined)
    fail(
      [...path, 'dimensions'],
      `only embedding models have dimensions, not ${entry.kind} models`,
    );
  if (entry.kind !== 'text' && entry.reasoning !== undefined)
    fail(
      [...path, 'reasoning'],
      `only text models have reasoning settings, not ${entry.kind} models`,
    );
  if (entry.promptEnhancement !== undefined) {
    if (entry.kind !== 'image-generation' && entry.kind !== 'image-edit')
      fail([...path, 'prompt_enhancement'], 'only image models enhance prompts');
    const textModel = models.get(entry.promptEnhancement.textModel);
    if (textModel?.kind !== 'text')
      fail(
        [...path, 'prompt_enhancement', 'text_model'],
        `'${entry.promptEnhancement.textModel}' is not a text model of the catalogue`,
      );
  }
}

/** A virtual id's target checked: a catalogue id (a virtual id would chain, and could loop). */
function checkTarget(
  entries: ReadonlyMap<string, ModelEntry>,
  virtual: ReadonlyMap<string, string>,
  target: string,
  path: readonly PropertyKey[],
): ModelEntry {
  const entry = entries.get(target);
  if (entry !== undefined) return entry;
  const chained = virtual.get(target);
  return fail(
    path,
    chained === undefined
      ? `unknown catalogue model '${target}'`
      : `'${target}' is itself a virtual model; map to its catalogue id '${chained}'`,
  );
}

/**
 * A virtual model given as a list, checked whole: catalogue models of one kind serving the same
 * endpoints (a request that one of them takes, the next must take too), none twice, weights only over
 * listed models.
 */
function toVirtualRoute(
  entries: ReadonlyMap<string, ModelEntry>,
  virtual: ReadonlyMap<string, string>,
  config: Exclude<VirtualModelConfig, string>,
  path: readonly PropertyKey[],
): VirtualRoute {
  const first = checkTarget(entries, virtual, config.models[0] as string, [...path, 'models', 0]);
  config.models.forEach((id, index) => {
    const at = [...path, 'models', index];
    const entry = checkTarget(entries, virtual, id, at);
    if (config.models.indexOf(id) !== index) fail(at, `'${id}' is listed twice`);
    if (entry.kind !== first.kind)
      fail(at, `'${id}' is of kind ${entry.kind}; '${first.id}' is of kind ${first.kind}`);
    const missing = first.serves.filter((endpoint) => !entry.serves.includes(endpoint));
    if (missing.length > 0)
      fail(at, `'${id}' does not serve ${missing.join(', ')}, which '${first.id}' serves`);
  });
  const on = new Set<FallbackReason>(config.on ?? defaultFallbackReasons);
  if (config.weights === undefined) return { models: config.models, on };
  const weights = Object.entries(config.weights).map(([model, weight]) => {
    if (!config.models.includes(model))
      fail([...path, 'weights', model], `'${model}' is not in this virtual model's models`);
    return { model, weight };
  });
  if (!weights.some(({ weight }) => weight > 0))
    fail([...path, 'weights'], 'at least one weight must be above 0');
  return { models: config.models, on, weights };
}

/**
 * The catalogue with the configuration file's `models` (new entries, and fields merged over existing
 * ones) and `virtual_models` (added, or re-pointing a default virtual id) applied. Every entry is
 * checked for consistency; a problem is a ConfigError naming the entry.
 */
export function extendCatalogue(
  base: Catalogue,
  models: Readonly<Record<string, ModelConfig>> | undefined,
  virtualModels: Readonly<Record<string, VirtualModelConfig>> | undefined,
): Catalogue {
  const entries = new Map(base.models);
  const virtual = new Map(base.virtualModels);
  for (const [id, config] of Object.entries(models ?? {})) {
    if (virtual.has(id) && !entries.has(id))
      fail(
        ['models', id],
        `'${id}' is a virtual model id; a catalogue id must differ from every virtual id`,
      );
    entries.set(id, mergeEntry(id, entries.get(id), config));
  }
  for (const id of Object.keys(models ?? {})) checkEntry(entries.get(id) as ModelEntry, entries);

  const routes = new Map(base.virtualRoutes);
  for (const [id, config] of Object.entries(virtualModels ?? {})) {
    const path = ['virtual_models', id];
    if (entries.has(id))
      fail(
        path,
        `'${id}' is a catalogue model id; a virtual id must differ from every catalogue id`,
      );
    if (typeof config === 'string') {
      checkTarget(entries, virtual, config, path);
      virtual.set(id, config);
      routes.delete(id);
      continue;
    }
    const route = toVirtualRoute(entries, virtual, config, path);
    virtual.set(id, route.models[0] as string);
    // A list of one has nothing to fall back to: it resolves as the one-string form does.
    if (route.models.length === 1) routes.delete(id);
    else routes.set(id, route);
  }
  return { models: entries, virtualModels: virtual, virtualRoutes: routes };
}
