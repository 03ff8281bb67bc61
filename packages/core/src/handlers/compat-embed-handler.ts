import { GatewayError } from '../errors/gateway-error.js';
import type { RouteHandler } from '../ports/handler-types.js';
import { utf8ByteLength } from '../http/utf8-byte-length.js';
import { compatEmbedRequestSchema } from '../schemas/compat-embed-request-schema.js';
import type { CompatEmbedRequest } from '../schemas/compat-embed-request-schema.js';
import { parseRequestBody } from '../schemas/parse-request-body.js';
import { compatEmbedPlan } from '../transforms/compat-embed-plan.js';
import { compatEmbedResponse } from '../transforms/compat-embed-response.js';
import { embeddingDimensions } from '../transforms/embedding-dimensions.js';
import {
  ignoredParamsHeader,
  resolveAllowedModel,
  sendUpstreamBytes,
  textResult,
  upstreamTargetFor,
} from './route-steps.js';
import { operationFor } from '../protocols/operation-for.js';
import type { UpstreamPathAndBody } from '../protocols/upstream-protocol.js';
import type { VectorText } from '../transforms/upstream-embeddings.js';
import { encodeBase64 } from '../transforms/encode-float32-base64.js';
import { LightAbortController } from '../http/light-abort-controller.js';

interface PlannedCall {
  request: UpstreamPathAndBody;
  /** Request positions of the vectors this call returns, in its answer's order. */
  positions: number[];
}

const hasImage = (request: CompatEmbedRequest): boolean =>
  request.inputs?.some((input) => input.content.some((block) => block.type === 'image_url')) ===
  true;

/**
 * docs/design.md's body limits: compat embed with text only is a JSON-only body (`limits.body_json_bytes`),
 * with images an image-bearing one. The route reads up to the image limit, since it cannot tell which
 * before the body is read; the text-only limit is applied here. A body over the JSON limit with no
 * `image_url` anywhere in its text is refused before parsing (any JSON writer spells the key out);
 * one that has it is parsed, and refused if no input actually holds an image.
 */
function checkTextOnlyLimit(
  body: string | undefined,
  limit: number,
  request?: CompatEmbedRequest,
): void {
  if (body === undefined || body.length <= limit / 3) return;
  const textOnly = request === undefined ? !body.includes('image_url') : !hasImage(request);
  if (textOnly && utf8ByteLength(body) > limit) throw GatewayError.payloadTooLarge(limit);
}

/**
 * POST /compat/v2/embed: Cohere v2 style embeddings over the upstream's `/v1/embeddings`. Text inputs
 * go in one batched call, each input holding an image in a call of its own; the calls run at once and
 * the first failure aborts the others.
 */
export const compatEmbedHandler: RouteHandler = async (input, context) => {
  const jsonLimit = context.config.limits.bodyJsonBytes;
  checkTextOnlyLimit(input.body, jsonLimit);
  const request = parseRequestBody(compatEmbedRequestSchema, input.body);
  checkTextOnlyLimit(input.body, jsonLimit, request);
  const entry = resolveAllowedModel(context, request.model, 'compat-embed');
  const dimensions = embeddingDimensions(
    entry,
    request.output_dimension,
    'output_dimension',
    'list',
  );
  const plan = compatEmbedPlan(request, entry);
  const target = upstreamTargetFor(context, entry);

  const embed = operationFor(target, entry.id, 'embeddings');

  const calls: PlannedCall[] = [];
  if (plan.textInputs.length > 0) {
    const texts = plan.textInputs.map((item) => item.text);
    calls.push({
      request: embed.request(target, {
        input: texts,
        dimensions,
        user: undefined,
        encodingFormat: 'float',
      }),
      positions: plan.textInputs.map((item) => item.position),
    });
  }
  if (plan.imageInputs.length > 0) {
    // Only a protocol with an image form serves these (TEI embeds text only); its answer reads like any embeddings answer.
    const embedImage = operationFor(target, entry.id, 'embedImage');
    for (const item of plan.imageInputs)
      calls.push({
        request: embedImage.request(target, item.content, dimensions),
        positions: [item.position],
      });
  }

  const controller = new LightAbortController();
  const abortAll = (): void => controller.abort(input.signal.reason);
  if (input.signal.aborted) abortAll();
  else input.signal.addEventListener('abort', abortAll, { once: true });
  const vectors = new Array<VectorText>(plan.count);
  let inputTokens = 0;
  const endpoints = new Set<string>();
  try {
    await Promise.all(
      calls.map(async (call) => {
        try {
          const answer = await sendUpstreamBytes(
            context,
            input,
            entry.id,
            call.request,
            controller.signal,
          );
          const embeddings = embed.read(answer.pieces, call.positions.length, dimensions);
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
    encodeBase64: context.encodeBase64 ?? encodeBase64,
  });
  // Neither upstream form of /v1/embeddings has a per-input token cap or a truncation side to map these onto.
  const ignored = [
    request.truncate === undefined ? undefined : 'truncate',
    request.max_tokens === undefined ? undefined : 'max_tokens',
  ].filter((name) => name !== undefined);
  return textResult(
    body,
    { model: entry.id, endpoint: [...endpoints].join(','), inputTokens },
    ignoredParamsHeader(ignored),
  );
};
