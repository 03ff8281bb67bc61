/** A catalogue endpoint's route; `generatesText` marks the endpoints that reserve output tokens. */
export interface EndpointRoute {
  method: 'POST';
  path: string;
  generatesText?: true;
}

/**
 * The gateway's catalogue endpoints, one entry each: the one list of them. The `Endpoint` names (a
 * model's `serves`, in the catalogue and the config) are its keys, and the route table takes each
 * endpoint's method and path from here. Zod-free and import-free on purpose: the SDK bundles it for
 * its paths without taking in the rest of core.
 */
export const endpointRoutes = {
  responses: { method: 'POST', path: '/v1/responses', generatesText: true },
  chat: { method: 'POST', path: '/v1/chat/completions', generatesText: true },
  embeddings: { method: 'POST', path: '/v1/embeddings' },
  'compat-embed': { method: 'POST', path: '/compat/v2/embed' },
  'compat-rerank': { method: 'POST', path: '/compat/v2/rerank' },
  'image-generations': { method: 'POST', path: '/v1/images/generations' },
  'image-edits': { method: 'POST', path: '/v1/images/edits' },
  tokenize: { method: 'POST', path: '/tokenize' },
} as const satisfies Readonly<Record<string, EndpointRoute>>;

/** The gateway's endpoints as the catalogue names them. */
export type Endpoint = keyof typeof endpointRoutes;

/** The GET routes an API client reads besides the endpoints: the model list and the prices. */
export const catalogueRoutes = {
  listModels: { method: 'GET', path: '/v1/models' },
  retrieveModel: { method: 'GET', path: '/v1/models/{id}' },
  getPricing: { method: 'GET', path: '/pricing' },
} as const;
