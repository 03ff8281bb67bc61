import { embeddingUpstreamRequest } from '../openai/embedding-upstream-request.js';
import { readEmbeddingUpstreamResponse } from '../openai/embedding-upstream-response.js';
import type { UpstreamProtocolAdapter } from '../upstream-protocol.js';
import { rerankUpstreamRequest } from './rerank-upstream-request.js';
import { readRerankUpstreamResponse } from './rerank-upstream-response.js';
import { tokenizeUpstreamRequest } from './tokenize-upstream-request.js';
import { readTokenizeUpstreamResponse } from './tokenize-upstream-response.js';

/**
 * text-embeddings-inference: its embeddings route is OpenAI-compatible, so it shares
 * the openai folder's; rerank and tokenize have TEI's own bodies. Text only: no image embeddings.
 */
export const teiProtocol: UpstreamProtocolAdapter = {
  embeddings: { request: embeddingUpstreamRequest, read: readEmbeddingUpstreamResponse },
  rerank: { request: rerankUpstreamRequest, read: readRerankUpstreamResponse },
  tokenize: { request: tokenizeUpstreamRequest, read: readTokenizeUpstreamResponse },
};
