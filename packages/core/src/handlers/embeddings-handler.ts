import type { RouteHandler } from '../ports/handler-types.js';
import {
  countEmbeddingInputs,
  embeddingsRequestSchema,
} from '../schemas/embeddings-request-schema.js';
import { parseRequestBody } from '../schemas/parse-request-body.js';
import { embeddingDimensions } from '../transforms/embedding-dimensions.js';
import { embeddingResponse } from '../transforms/embedding-response.js';
import {
  resolveAllowedModel,
  sendUpstreamBytes,
  textResult,
  upstreamTargetFor,
} from './route-steps.js';
import { operationFor } from '../protocols/operation-for.js';
import { encodeBase64 } from '../transforms/encode-float32-base64.js';

/** POST /v1/embeddings: the OpenAI-style embeddings endpoint (spec), over a vLLM or TEI upstream. */
export const embeddingsHandler: RouteHandler = async (input, context) => {
  const request = parseRequestBody(embeddingsRequestSchema, input.body);
  const entry = resolveAllowedModel(context, request.model, 'embeddings');
  const dimensions = embeddingDimensions(entry, request.dimensions, 'dimensions', 'range');
  const target = upstreamTargetFor(context, entry);
  const embed = operationFor(target, entry.id, 'embeddings');

  const encodingFormat = request.encoding_format;
  const upstreamRequest = embed.request(target, {
    input: request.input,
    dimensions,
    user: request.user,
    encodingFormat,
  });
  const answer = await sendUpstreamBytes(context, input, entry.id, upstreamRequest);
  const embeddings = embed.read(
    answer.pieces,
    countEmbeddingInputs(request.input),
    dimensions,
    encodingFormat === 'base64',
  );

  const response = embeddingResponse({
    // vLLM sends an embd-<hex> id; TEI sends none.
    id: embeddings.id ?? `embd-${context.ids.hex(32)}`,
    created: Math.floor(context.clock.now() / 1000),
    model: entry.id,
    embeddings,
    encodingFormat,
    encodeBase64: context.encodeBase64 ?? encodeBase64,
  });
  const meta = { model: entry.id, endpoint: answer.endpoint, inputTokens: embeddings.promptTokens };
  if (typeof response === 'string') return textResult(response, meta);
  return textResult(response.pieces, meta, { 'content-length': String(response.byteLength) });
};
