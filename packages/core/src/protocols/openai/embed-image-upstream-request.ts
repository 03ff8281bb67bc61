import type { UpstreamTarget } from '../../handlers/ports.js';
import type { CompatContentBlock } from '../../schemas/compat-embed-request-schema.js';
import { embeddingsUpstreamPath, embeddingUpstreamRequest, unsupportedUpstreamProtocol } from './embedding-upstream-request.js';
import type { UpstreamPathAndBody } from './embedding-upstream-request.js';

/** The text inputs of a compat embed request as one batched `/v1/embeddings` call (vLLM or TEI). */
export function compatEmbedTextRequest(target: UpstreamTarget, modelId: string, texts: string[], dimensions: number | undefined): UpstreamPathAndBody {
  return embeddingUpstreamRequest(target, modelId, { input: texts, dimensions, user: undefined });
}

/**
 * One input holding an image, in vLLM's chat form of `/v1/embeddings` (a `messages` list instead of
 * `input`, protocols.md 3.2). Only vLLM (`openai`) takes it: TEI embeds text only. vLLM's own `/v2/embed`
 * is avoided because it exists only in 2026+ versions and rejects `input_type` (protocols.md 9).
 */
export function compatEmbedImageRequest(target: UpstreamTarget, modelId: string, content: readonly CompatContentBlock[], dimensions: number | undefined): UpstreamPathAndBody {
  if (target.protocol !== 'openai') throw unsupportedUpstreamProtocol(modelId, target.protocol);
  const body: Record<string, unknown> = { model: target.model, messages: [{ role: 'user', content }], encoding_format: 'float' };
  if (dimensions !== undefined) body.dimensions = dimensions;
  return { path: embeddingsUpstreamPath, body };
}
