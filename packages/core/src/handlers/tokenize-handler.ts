import { GatewayError } from '../errors/gateway-error.js';
import type { RouteHandler } from '../http/handler-types.js';
import { parseRequestBody } from '../schemas/parse-request-body.js';
import { tokenizeRequestSchema } from '../schemas/tokenize-request-schema.js';
import { jsonResult, resolveAllowedModel, sendUpstreamJson, upstreamTargetFor } from './route-steps.js';
import { tokenizeResponse } from '../transforms/tokenize-response.js';
import { tokenizeUpstreamRequest } from '../transforms/tokenize-upstream-request.js';
import { readTokenizeUpstreamResponse } from '../transforms/tokenize-upstream-response.js';

/** POST /tokenize: token ids of a prompt and the model's context window (spec). */
export const tokenizeHandler: RouteHandler = async (input, context) => {
  const request = parseRequestBody(tokenizeRequestSchema, input.body);
  const entry = resolveAllowedModel(context, request.model, 'tokenize');
  const target = upstreamTargetFor(context, entry);

  const answer = await sendUpstreamJson(context, input, entry.id, tokenizeUpstreamRequest(target, entry.id, request));
  const upstream = readTokenizeUpstreamResponse(target.protocol, answer.body);
  // The catalogue's window wins: the spec promises the documented context, whatever a backend was started with.
  const maxModelLen = entry.contextWindow ?? upstream.maxModelLen;
  if (maxModelLen === undefined) throw GatewayError.upstreamFailed(`The context window of '${entry.id}' is unknown.`);

  // No inputTokens in meta: counting tokens is not inference and is not billed as input.
  return jsonResult(tokenizeResponse({ tokens: upstream.tokens, maxModelLen }), { model: entry.id, endpoint: answer.endpoint });
};
