import type { UpstreamTarget } from '../../handlers/ports.js';
import type { CompatRerankRequest } from '../../schemas/compat-rerank-request-schema.js';
import { unsupportedUpstreamProtocol } from './embedding-upstream-request.js';
import type { UpstreamPathAndBody } from './embedding-upstream-request.js';

export interface RerankUpstreamRequest extends UpstreamPathAndBody {
  /** Request parameters this upstream has no field for (reported in x-infergate-ignored-params). */
  ignored: string[];
}

/**
 * The rerank call in the target's protocol (protocols.md 3.3, 4.2, 5.2, 9): Cohere takes the request
 * as it is on `/v2/rerank`; vLLM takes the Jina body on `/rerank` (its `/v2/rerank` is Jina too, not
 * Cohere); TEI takes `{query, texts}` on `/rerank` and has no top_n, which the gateway applies itself.
 */
export function rerankUpstreamRequest(target: UpstreamTarget, modelId: string, request: CompatRerankRequest): RerankUpstreamRequest {
  const maxTokensIgnored = request.max_tokens_per_doc === undefined ? [] : ['max_tokens_per_doc'];
  switch (target.protocol) {
    case 'cohere': {
      const body: Record<string, unknown> = { model: target.model, query: request.query, documents: request.documents };
      if (request.top_n !== undefined) body.top_n = request.top_n;
      if (request.max_tokens_per_doc !== undefined) body.max_tokens_per_doc = request.max_tokens_per_doc;
      return { path: '/v2/rerank', body, ignored: [] };
    }
    case 'openai':
      // vLLM's top_n 0 means "all"; the document count says the same to any Jina-style server.
      return { path: '/rerank', body: { model: target.model, query: request.query, documents: request.documents, top_n: request.top_n ?? request.documents.length }, ignored: maxTokensIgnored };
    case 'tei':
      return { path: '/rerank', body: { query: request.query, texts: request.documents }, ignored: maxTokensIgnored };
    default:
      throw unsupportedUpstreamProtocol(modelId, target.protocol);
  }
}
