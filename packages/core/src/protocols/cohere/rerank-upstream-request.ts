import type { UpstreamTarget } from '../../ports/ports.js';
import type { CompatRerankRequest } from '../../schemas/compat-rerank-request-schema.js';
import type { RerankUpstreamRequest } from '../upstream-protocol.js';

/** A Cohere v2 server takes the request as it is on `/v2/rerank`: nothing is ignored. */
export function rerankUpstreamRequest(
  target: UpstreamTarget,
  request: CompatRerankRequest,
): RerankUpstreamRequest {
  const body: Record<string, unknown> = {
    model: target.model,
    query: request.query,
    documents: request.documents,
  };
  if (request.top_n !== undefined) body.top_n = request.top_n;
  if (request.max_tokens_per_doc !== undefined)
    body.max_tokens_per_doc = request.max_tokens_per_doc;
  return { path: '/v2/rerank', body, ignored: [] };
}
