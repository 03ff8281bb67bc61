import type { UpstreamTarget } from '../../ports/ports.js';
import type { CompatRerankRequest } from '../../schemas/compat-rerank-request-schema.js';
import type { RerankUpstreamRequest } from '../upstream-protocol.js';

/**
 * TEI takes `{query, texts}` on `/rerank`: one model per server, so none is named, and
 * no top_n, which the gateway applies itself; it has no per-document token cap either.
 */
export function rerankUpstreamRequest(
  _target: UpstreamTarget,
  request: CompatRerankRequest,
): RerankUpstreamRequest {
  const body = { query: request.query, texts: request.documents };
  return {
    path: '/rerank',
    body,
    ignored: request.max_tokens_per_doc === undefined ? [] : ['max_tokens_per_doc'],
  };
}
