import type { RouteContext } from '../http/route-context.js';
import { VllmError } from '../http/vllm-error.js';
import type { ServedModel } from './model-registry.js';

// A fixed creation time keeps the list deterministic; vLLM stamps the server's start.
const created = Math.floor(Date.now() / 1000);

/** vLLM's ModelCard, including max_model_len and the permission entry it always attaches. */
function modelCard(model: ServedModel): Record<string, unknown> {
  return {
    id: model.id,
    object: 'model',
    created,
    owned_by: 'vllm',
    root: model.id,
    parent: null,
    max_model_len: model.contextWindow,
    permission: [
      {
        id: `modelperm-${model.id}`,
        object: 'model_permission',
        created,
        allow_create_engine: false,
        allow_sampling: true,
        allow_logprobs: true,
        allow_search_indices: false,
        allow_view: true,
        allow_fine_tuning: false,
        organization: '*',
        group: null,
        is_blocking: false,
      },
    ],
  };
}

/** `GET /v1/models`. */
export function modelsRoute(_request: Request, context: RouteContext): Promise<Response> {
  return Promise.resolve(
    Response.json({ object: 'list', data: context.registry.list().map(modelCard) }),
  );
}

/** `GET /v1/models/{id}`; an unknown id is the 404 envelope. */
export function modelRoute(id: string, context: RouteContext): Response {
  const model = context.registry.list().find((candidate) => candidate.id === id);
  return model === undefined
    ? VllmError.modelNotFound(id).toResponse()
    : Response.json(modelCard(model));
}
