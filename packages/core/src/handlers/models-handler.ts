import type { Catalogue, ModelEntry, VirtualRoute } from '../catalogue/catalogue-types.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ApiKeyIdentity } from '../ports/ports.js';
import type { JsonResult, RouteHandler } from '../ports/handler-types.js';

/**
 * The `created` of every model: a fixed date (2026-01-01T00:00:00Z), the catalogue's, so that the
 * list is the same on every call and every replica rather than the time of the request.
 */
export const catalogueCreated = 1_767_225_600;

/** One entry of GET /v1/models: OpenAI's Model (id, object, created, owned_by) plus what the catalogue knows. */
export interface ModelObject {
  id: string;
  object: 'model';
  created: number;
  owned_by: 'infergate';
  kind: ModelEntry['kind'];
  description: string;
  /** Context window in tokens; null for models without one (reranker, image models). */
  context_window: number | null;
  input_modalities: readonly string[];
  /** Embedding dimensions: the default and every allowed value (one value when fixed); null otherwise. */
  dimensions: { default: number; allowed: readonly number[] } | null;
  /** The gateway endpoints (catalogue names: responses, chat, embeddings...) that accept the model. */
  serves: readonly string[];
  /** Only on virtual models: the catalogue id the virtual id maps to (the first of its list). */
  maps_to?: string;
  /** Only on virtual models with a list: the models in the order they are tried, and when. */
  fallback?: { models: readonly string[]; on: string[]; weights?: Record<string, number> };
}

function fallbackOf(route: VirtualRoute): NonNullable<ModelObject['fallback']> {
  const fallback: NonNullable<ModelObject['fallback']> = {
    models: route.models,
    on: [...route.on],
  };
  if (route.weights !== undefined)
    fallback.weights = Object.fromEntries(
      route.weights.map(({ model, weight }) => [model, weight]),
    );
  return fallback;
}

function dimensionsOf(entry: ModelEntry): ModelObject['dimensions'] {
  if (!entry.dimensions) return null;
  if (entry.dimensions.kind === 'fixed')
    return { default: entry.dimensions.value, allowed: [entry.dimensions.value] };
  return { default: entry.dimensions.default, allowed: entry.dimensions.allowed };
}

function modelObject(
  id: string,
  entry: ModelEntry,
  mapsTo: string | undefined,
  route?: VirtualRoute,
): ModelObject {
  const object: ModelObject = {
    id,
    object: 'model',
    created: catalogueCreated,
    owned_by: 'infergate',
    kind: entry.kind,
    description: entry.description,
    context_window: entry.contextWindow ?? null,
    input_modalities: entry.inputModalities,
    dimensions: dimensionsOf(entry),
    serves: entry.serves,
  };
  if (mapsTo !== undefined) object.maps_to = mapsTo;
  if (route !== undefined) object.fallback = fallbackOf(route);
  return object;
}

// A key restricted to some models sees only those; the list never advertises what the key cannot use.
function visibleTo(identity: ApiKeyIdentity | undefined, id: string): boolean {
  return identity?.models === undefined || identity.models.includes(id);
}

/** Every catalogue model, then every virtual model, as the key may see them. */
export function listModelObjects(
  catalogue: Catalogue,
  identity: ApiKeyIdentity | undefined,
): ModelObject[] {
  const objects: ModelObject[] = [];
  for (const [id, entry] of catalogue.models)
    if (visibleTo(identity, id)) objects.push(modelObject(id, entry, undefined));
  for (const [id, target] of catalogue.virtualModels) {
    const entry = catalogue.models.get(target);
    if (entry && visibleTo(identity, id))
      objects.push(modelObject(id, entry, target, catalogue.virtualRoutes.get(id)));
  }
  return objects;
}

function json(body: unknown): JsonResult {
  return {
    kind: 'json',
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    meta: {},
  };
}

/** GET /v1/models: `{object: 'list', data: [Model]}` as openai-node's `models.list()` reads it. */
export const listModelsHandler: RouteHandler = async (_input, context) =>
  json({ object: 'list', data: listModelObjects(context.config.catalogue, context.identity) });

/** GET /v1/models/{id}: one Model; an unknown id (or one the key may not see) is 404 model_not_found. */
export const retrieveModelHandler: RouteHandler = async (input, context) => {
  const id = input.params.id ?? '';
  const { catalogue } = context.config;
  const target = catalogue.virtualModels.get(id);
  const entry = catalogue.models.get(target ?? id);
  if (!entry || !visibleTo(context.identity, id)) throw GatewayError.modelNotFound(id);
  return json(
    modelObject(
      id,
      entry,
      target,
      target === undefined ? undefined : catalogue.virtualRoutes.get(id),
    ),
  );
};
