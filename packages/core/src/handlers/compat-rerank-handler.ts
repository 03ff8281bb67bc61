import type { RouteHandler } from '../ports/handler-types.js';
import { compatRerankRequestSchema } from '../schemas/compat-rerank-request-schema.js';
import { parseRequestBody } from '../schemas/parse-request-body.js';
import {
  ignoredParamsHeader,
  jsonResult,
  resolveAllowedModel,
  sendUpstreamJson,
  upstreamTargetFor,
} from './route-steps.js';
import { rerankResponse } from '../transforms/rerank-response.js';
import { operationFor } from '../protocols/operation-for.js';

/** POST /compat/v2/rerank: Cohere v2 rerank over a Cohere, vLLM (Jina body) or TEI upstream. */
export const compatRerankHandler: RouteHandler = async (input, context) => {
  const request = parseRequestBody(compatRerankRequestSchema, input.body);
  const entry = resolveAllowedModel(context, request.model, 'compat-rerank');
  const target = upstreamTargetFor(context, entry);

  const rerankOperation = operationFor(target, entry.id, 'rerank');
  const upstreamRequest = rerankOperation.request(target, request);
  const answer = await sendUpstreamJson(context, input, entry.id, upstreamRequest);
  const rerank = rerankOperation.read(answer.body, request.documents.length);

  const body = rerankResponse({ id: input.requestId, scores: rerank.scores, topN: request.top_n });
  return jsonResult(
    body,
    { model: entry.id, endpoint: answer.endpoint, inputTokens: rerank.inputTokens },
    ignoredParamsHeader(upstreamRequest.ignored),
  );
};
