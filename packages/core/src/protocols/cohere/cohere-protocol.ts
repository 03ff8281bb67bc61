import type { UpstreamProtocolAdapter } from '../upstream-protocol.js';
import { readRerankResultsUpstreamResponse } from './rerank-results-upstream-response.js';
import { rerankUpstreamRequest } from './rerank-upstream-request.js';

/** A Cohere v2 style server: rerank on `/v2/rerank`. */
export const cohereProtocol: UpstreamProtocolAdapter = {
  rerank: { request: rerankUpstreamRequest, read: readRerankResultsUpstreamResponse },
};
