import type { Endpoint } from '../catalogue/catalogue-types.js';

/**
 * Where each catalogue endpoint is served. Zod-free and import-free on purpose: the route table
 * builds its routes from it, and the SDK bundles it for its paths without taking in the rest of core.
 */
export const endpointRoutes = {
  responses: { method: 'POST', path: '/v1/responses' },
  chat: { method: 'POST', path: '/v1/chat/completions' },
  embeddings: { method: 'POST', path: '/v1/embeddings' },
  'compat-embed': { method: 'POST', path: '/compat/v2/embed' },
  'compat-rerank': { method: 'POST', path: '/compat/v2/rerank' },
  'image-generations': { method: 'POST', path: '/v1/images/generations' },
  'image-edits': { method: 'POST', path: '/v1/images/edits' },
  tokenize: { method: 'POST', path: '/tokenize' },
} as const satisfies Readonly<Record<Endpoint, { method: 'POST'; path: string }>>;

/** The GET routes an API client reads besides the endpoints: the model list and the prices. */
export const catalogueRoutes = {
  listModels: { method: 'GET', path: '/v1/models' },
  retrieveModel: { method: 'GET', path: '/v1/models/{id}' },
  getPricing: { method: 'GET', path: '/pricing' },
} as const;
