import type { UpstreamTarget } from '../../ports/ports.js';
import type { CompatRerankRequest } from '../../schemas/compat-rerank-request-schema.js';
import type { RerankUpstreamRequest } from '../upstream-protocol.js';

/**
 * vLLM's rerank takes the Jina body on `/rerank` (its `/v2/rerank` is Jina too, not Cohere)
 * and has no per-document token cap.
 */
export function rerankUpstreamRequest(
  target: UpstreamTarget,
  request: CompatRerankRequest,
): RerankUpstreamRequest {
  // vLLM's top_n 0 means "all"; the document count says the same to any Jina-style server.
  const body = {
    model: target.model,
    query: request.query,
    documents: request.documents,
    top_n: request.top_n ?? request.documents.length,
  };
  return {
    path: '/rerank',
    body,
    ignored: request.max_tokens_per_doc === undefined ? [] : ['max_tokens_per_doc'],
  };
}
