import type { UpstreamTarget } from '../../handlers/ports.js';
import type { EmbeddingUpstreamOptions, UpstreamPathAndBody } from '../upstream-protocol.js';

/** The one path both vLLM and TEI serve OpenAI-style embeddings on (protocols.md 3.2, 5.3). */
export const embeddingsUpstreamPath = '/v1/embeddings';

/**
 * POST /v1/embeddings for a vLLM (`openai`) or TEI upstream. Floats are always asked for: the gateway
 * encodes base64 itself, so the layout never depends on the upstream's version or host byte order and
 * nothing is decoded twice (protocols.md 9).
 */
export function embeddingUpstreamRequest(target: UpstreamTarget, options: EmbeddingUpstreamOptions): UpstreamPathAndBody {
  const body: Record<string, unknown> = { model: target.model, input: options.input, encoding_format: 'float' };
  if (options.dimensions !== undefined) body.dimensions = options.dimensions;
  if (options.user !== undefined) body.user = options.user;
  return { path: embeddingsUpstreamPath, body };
}
