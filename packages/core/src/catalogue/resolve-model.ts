import { GatewayError } from '../errors/gateway-error.js';
import { endpointRoutes } from './route-paths.js';
import type { Catalogue, Endpoint, ModelEntry } from './catalogue-types.js';

/** The public path of each endpoint (`POST /v1/responses`), for messages that tell a client where a model is served. */
export const endpointPaths = Object.fromEntries(
  Object.entries(endpointRoutes).map(([endpoint, route]) => [
    endpoint,
    `${route.method} ${route.path}`,
  ]),
) as Readonly<Record<Endpoint, string>>;

export interface ResolvedModel {
  entry: ModelEntry;
  /** The id the client sent (a virtual id, or the catalogue id itself). */
  requested: string;
}

/** A catalogue or virtual id as its catalogue entry; 404 model_not_found otherwise. */
export function resolveModel(catalogue: Catalogue, requested: string): ResolvedModel {
  const id = catalogue.virtualModels.get(requested) ?? requested;
  const entry = catalogue.models.get(id);
  if (!entry) throw GatewayError.modelNotFound(requested);
  return { entry, requested };
}

/** Resolves a model and refuses it (400 model_not_supported) on an endpoint it does not serve. */
export function resolveModelFor(
  catalogue: Catalogue,
  requested: string,
  endpoint: Endpoint,
): ResolvedModel {
  const resolved = resolveModel(catalogue, requested);
  if (!resolved.entry.serves.includes(endpoint)) {
    throw GatewayError.modelNotSupported(
      requested,
      endpointPaths[endpoint],
      resolved.entry.serves.map((served) => endpointPaths[served]),
    );
  }
  return resolved;
}
