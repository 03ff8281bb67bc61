// The paths are core's route table's (bundled at build time: route-paths.ts is zod-free).
import { endpointRoutes } from '@infergate/core';
import type { RequestOptions } from '../client-options.js';
import { requestJson } from '../transport/request-json.js';
import type { TransportConfig } from '../transport/transport-config.js';
import type {
  CompatEmbedParams,
  CompatEmbedResponse,
  CompatRerankParams,
  CompatRerankResponse,
} from '../types/compat-types.js';

/** The /compat/v2 endpoints, shaped after the widely used embed/rerank API. */
export interface Compat {
  /** POST /compat/v2/embed: text and image embeddings of alpha3-vl-embedding-8b with a chosen dimension. */
  embed(params: CompatEmbedParams, options?: RequestOptions): Promise<CompatEmbedResponse>;
  /** POST /compat/v2/rerank: documents ordered by relevance to the query, most relevant first. */
  rerank(params: CompatRerankParams, options?: RequestOptions): Promise<CompatRerankResponse>;
}

export function compat(config: TransportConfig): Compat {
  return {
    embed: (params, options) =>
      requestJson(
        config,
        { method: 'POST', path: endpointRoutes['compat-embed'].path, body: params },
        options,
      ),
    rerank: (params, options) =>
      requestJson(
        config,
        { method: 'POST', path: endpointRoutes['compat-rerank'].path, body: params },
        options,
      ),
  };
}
