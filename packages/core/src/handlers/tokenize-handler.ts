import { GatewayError } from '../errors/gateway-error.js';
import { readUpstreamErrorBody } from '../errors/map-upstream-status.js';
import type { RouteHandler } from '../ports/handler-types.js';
import { parseRequestBody } from '../schemas/parse-request-body.js';
import { tokenizeRequestSchema } from '../schemas/tokenize-request-schema.js';
import {
  jsonResult,
  resolveAllowedModel,
  sendUpstreamJson,
  upstreamTargetFor,
} from './route-steps.js';
import { tokenizeResponse } from '../transforms/tokenize-response.js';
import { operationFor } from '../protocols/operation-for.js';

/**
 * Whether a non-2xx answer to the tokenize call says the server has no such route, rather than
 * refusing this request: a plain OpenAI-compatible server answers 404 (FastAPI's `{"detail":"Not
 * Found"}`, Go's and Express's text pages) or 405. vLLM's 404 for a model it does not serve names the
 * model instead, and keeps docs/design.md's mapping.
 */
function lacksTokenizeRoute(status: number, body: unknown): boolean {
  if (status !== 404 && status !== 405) return false;
  const { message } = readUpstreamErrorBody(body);
  return message === undefined || /not found|method not allowed/i.test(message);
}

/** POST /tokenize: token ids of a prompt and the model's context window (spec). */
export const tokenizeHandler: RouteHandler = async (input, context) => {
  const request = parseRequestBody(tokenizeRequestSchema, input.body);
  const entry = resolveAllowedModel(context, request.model, 'tokenize');
  const target = upstreamTargetFor(context, entry);
  if (target.tokenize === false) throw GatewayError.tokenizeNotOffered(entry.id);
  const tokenize = operationFor(target, entry.id, 'tokenize');

  const answer = await sendUpstreamJson(
    context,
    input,
    entry.id,
    tokenize.request(target, request),
    input.signal,
    (status, body) =>
      lacksTokenizeRoute(status, body) ? GatewayError.tokenizeNotOffered(entry.id) : undefined,
  );
  const upstream = tokenize.read(answer.body);
  // The catalogue's window wins: the spec promises the documented context, whatever a backend was started with.
  const maxModelLen = entry.contextWindow ?? upstream.maxModelLen;
  if (maxModelLen === undefined)
    throw GatewayError.upstreamFailed(`The context window of '${entry.id}' is unknown.`);

  // No inputTokens in meta: counting tokens is not inference and is not billed as input.
  return jsonResult(tokenizeResponse({ tokens: upstream.tokens, maxModelLen }), {
    model: entry.id,
    endpoint: answer.endpoint,
  });
};
