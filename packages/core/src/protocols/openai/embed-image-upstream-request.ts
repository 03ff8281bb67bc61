import type { UpstreamTarget } from '../../ports/ports.js';
import type { CompatContentBlock } from '../../schemas/compat-embed-request-schema.js';
import type { UpstreamPathAndBody } from '../upstream-protocol.js';
import { embeddingsUpstreamPath } from './embedding-upstream-request.js';

/**
 * One input holding an image, in vLLM's chat form of `/v1/embeddings` (a `messages` list instead of
 * `input`). Only vLLM (`openai`) takes it: TEI embeds text only. vLLM's own `/v2/embed`
 * is avoided because it exists only in 2026+ versions and rejects `input_type`.
 */
export function embedImageUpstreamRequest(
  target: UpstreamTarget,
  content: readonly CompatContentBlock[],
  dimensions: number | undefined,
): UpstreamPathAndBody {
  const body: Record<string, unknown> = {
    model: target.model,
    messages: [{ role: 'user', content }],
    encoding_format: 'float',
  };
  if (dimensions !== undefined) body.dimensions = dimensions;
  return { path: embeddingsUpstreamPath, body };
}
