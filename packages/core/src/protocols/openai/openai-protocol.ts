import type { UpstreamProtocolAdapter } from '../upstream-protocol.js';
import { chatUpstreamCall } from './chat-upstream-call.js';
import { readUpstreamChatCompletion } from './chat-upstream-completion.js';
import { embedImageUpstreamRequest } from './embed-image-upstream-request.js';
import { embeddingUpstreamRequest } from './embedding-upstream-request.js';
import { readEmbeddingUpstreamResponse } from './embedding-upstream-response.js';
import { readRerankResultsUpstreamResponse } from '../cohere/rerank-results-upstream-response.js';
import { rerankUpstreamRequest } from './rerank-upstream-request.js';
import {
  tokenizeChatUpstreamRequest,
  tokenizeUpstreamRequest,
} from './tokenize-upstream-request.js';
import { readTokenizeUpstreamResponse } from './tokenize-upstream-response.js';

/**
 * vLLM or any OpenAI-compatible server. Its rerank answer has the Cohere v2 result
 * fields (`results[].relevance_score`), so it is read by the cohere folder's reader.
 */
export const openaiProtocol: UpstreamProtocolAdapter = {
  chat: { request: chatUpstreamCall, read: readUpstreamChatCompletion },
  embeddings: { request: embeddingUpstreamRequest, read: readEmbeddingUpstreamResponse },
  embedImage: { request: embedImageUpstreamRequest },
  rerank: { request: rerankUpstreamRequest, read: readRerankResultsUpstreamResponse },
  tokenize: { request: tokenizeUpstreamRequest, read: readTokenizeUpstreamResponse },
  tokenizeChat: { request: tokenizeChatUpstreamRequest, read: readTokenizeUpstreamResponse },
};
