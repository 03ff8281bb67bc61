import { BodyFields } from '../http/body-fields.js';
import { randomHex } from '../http/random-hex.js';
import { readJsonBody } from '../http/read-json-body.js';
import type { RouteContext } from '../http/route-context.js';
import { VllmError } from '../http/vllm-error.js';
import { embeddingDimensions, truncateEmbedding } from './embedding-dimensions.js';
import { embeddingInputs, inputTooLong } from './embedding-inputs.js';
import { float32Base64 } from './float32-base64.js';
import { combineEmbeddings, imageEmbedding } from './image-embedding.js';
import { lexicalEmbedding } from './lexical-embedding.js';

/** `POST /v1/embeddings`, answered with vLLM's EmbeddingResponse. */
export async function embeddingsRoute(request: Request, context: RouteContext): Promise<Response> {
  const body = await readJsonBody(request);
  const fields = new BodyFields(body);
  const model = context.registry.resolveKind(fields.string('model'), ['embedding'], 'Embeddings');
  const encodingFormat = fields.string('encoding_format') ?? 'float';
  if (encodingFormat !== 'float' && encodingFormat !== 'base64') {
    throw VllmError.validation(
      "1 validation error: body.encoding_format: Input should be 'float' or 'base64'",
      'body.encoding_format',
    );
  }
  const dimensions = embeddingDimensions(model, fields.integer('dimensions'));
  const inputs = await embeddingInputs(body, model.contextWindow);
  for (const input of inputs) {
    if (model.contextWindow !== null && input.promptTokens > model.contextWindow)
      throw inputTooLong(model.contextWindow, input.promptTokens);
  }

  const data = [];
  for (const [index, input] of inputs.entries()) {
    const parts = [lexicalEmbedding(input.terms, dimensions.full)];
    for (const image of input.images) parts.push(await imageEmbedding(image, dimensions.full));
    // Image-only input: the (empty) text part would pull every image towards the same fixed vector.
    const used = input.terms.length === 0 && input.images.length > 0 ? parts.slice(1) : parts;
    const vector = truncateEmbedding(
      used.length === 1 && used[0] !== undefined
        ? used[0]
        : combineEmbeddings(used, dimensions.full),
      dimensions.output,
    );
    data.push({
      index,
      object: 'embedding',
      embedding: encodingFormat === 'base64' ? float32Base64(vector) : Array.from(vector),
    });
  }
  const promptTokens = inputs.reduce((sum, input) => sum + input.promptTokens, 0);
  return Response.json({
    id: `embd-${randomHex()}`,
    object: 'list',
    created: Math.floor(Date.now() / 1000),
    model: model.id,
    data,
    usage: {
      prompt_tokens: promptTokens,
      total_tokens: promptTokens,
      completion_tokens: 0,
      prompt_tokens_details: null,
    },
  });
}
