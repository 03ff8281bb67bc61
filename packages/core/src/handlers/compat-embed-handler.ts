import type { RouteHandler } from '../http/handler-types.js';
import { compatEmbedRequestSchema } from '../schemas/compat-embed-request-schema.js';
import { parseRequestBody } from '../schemas/parse-request-body.js';
import { compatEmbedPlan } from '../transforms/compat-embed-plan.js';
import { compatEmbedResponse } from '../transforms/compat-embed-response.js';
import { compatEmbedImageRequest, compatEmbedTextRequest } from '../transforms/compat-embed-upstream-request.js';
import { embeddingDimensions } from '../transforms/embedding-dimensions.js';
import { ignoredParamsHeader, jsonResult, resolveAllowedModel, sendUpstreamJson, upstreamTargetFor } from './route-steps.js';
import type { UpstreamPathAndBody } from '../transforms/embedding-upstream-request.js';
import { readEmbeddingUpstreamResponse } from '../transforms/embedding-upstream-response.js';

interface PlannedCall {
  request: UpstreamPathAndBody;
  /** Request positions of the vectors this call returns, in its answer's order. */
  positions: number[];
}

/**
 * POST /compat/v2/embed: Cohere v2 style embeddings over the upstream's `/v1/embeddings`. Text inputs
 * go in one batched call, each input holding an image in a call of its own; the calls run at once and
 * the first failure aborts the others.
 */
export const compatEmbedHandler: RouteHandler = async (input, context) => {
  const request = parseRequestBody(compatEmbedRequestSchema, input.body);
  const entry = resolveAllowedModel(context, request.model, 'compat-embed');
  const dimensions = embeddingDimensions(entry, request.output_dimension, 'output_dimension', 'list');
  const plan = compatEmbedPlan(request, entry);
  const target = upstreamTargetFor(context, entry);

  const calls: PlannedCall[] = [];
  if (plan.textInputs.length > 0) {
    const texts = plan.textInputs.map((item) => item.text);
    calls.push({ request: compatEmbedTextRequest(target, entry.id, texts, dimensions), positions: plan.textInputs.map((item) => item.position) });
  }
  for (const item of plan.imageInputs) {
    calls.push({ request: compatEmbedImageRequest(target, entry.id, item.content, dimensions), positions: [item.position] });
  }

  const controller = new AbortController();
  const abortAll = (): void => controller.abort(input.signal.reason);
  if (input.signal.aborted) abortAll();
  else input.signal.addEventListener('abort', abortAll, { once: true });
  const vectors = new Array<number[]>(plan.count);
  let inputTokens = 0;
  const endpoints = new Set<string>();
  try {
    await Promise.all(
      calls.map(async (call) => {
        try {
          const answer = await sendUpstreamJson(context, input, entry.id, call.request, controller.signal);
          const embeddings = readEmbeddingUpstreamResponse(answer.body, call.positions.length, dimensions);
          embeddings.vectors.forEach((vector, index) => {
            vectors[call.positions[index] ?? 0] = vector;
          });
          inputTokens += embeddings.promptTokens;
          endpoints.add(answer.endpoint);
        } catch (error) {
          controller.abort();
          throw error;
        }
      }),
    );
  } finally {
    input.signal.removeEventListener('abort', abortAll);
  }

  const body = compatEmbedResponse({
    id: input.requestId,
    model: entry.id,
    vectors,
    embeddingTypes: request.embedding_types,
    texts: plan.textInputs.map((item) => item.text),
    images: plan.images,
    inputTokens,
  });
  // Neither upstream form of /v1/embeddings has a per-input token cap or a truncation side to map these onto.
  const ignored = [request.truncate === undefined ? undefined : 'truncate', request.max_tokens === undefined ? undefined : 'max_tokens'].filter((name) => name !== undefined);
  return jsonResult(body, { model: entry.id, endpoint: [...endpoints].join(','), inputTokens }, ignoredParamsHeader(ignored));
};
