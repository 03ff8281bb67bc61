import { GatewayError } from '../errors/gateway-error.js';
import type { Catalogue, Endpoint, ModelEntry } from './catalogue-types.js';

/** The public path of each endpoint, for messages that tell a client where a model is served. */
export const endpointPaths: Readonly<Record<Endpoint, string>> = {
  responses: 'POST /v1/responses',
  chat: 'POST /v1/chat/completions',
  embeddings: 'POST /v1/embeddings',
  'compat-embed': 'POST /compat/v2/embed',
  'compat-rerank': 'POST /compat/v2/rerank',
  'image-generations': 'POST /v1/images/generations',
  'image-edits': 'POST /v1/images/edits',
  tokenize: 'POST /tokenize',
};

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
export function resolveModelFor(catalogue: Catalogue, requested: string, endpoint: Endpoint): ResolvedModel {
  const resolved = resolveModel(catalogue, requested);
  if (!resolved.entry.serves.includes(endpoint)) {
    throw GatewayError.modelNotSupported(requested, endpointPaths[endpoint], resolved.entry.serves.map((served) => endpointPaths[served]));
  }
  return resolved;
}
