import type { UpstreamTarget } from '../../ports/ports.js';
import type { EmbeddingUpstreamOptions, UpstreamPathAndBody } from '../upstream-protocol.js';

/** The one path both vLLM and TEI serve OpenAI-style embeddings on. */
export const embeddingsUpstreamPath = '/v1/embeddings';

/**
 * POST /v1/embeddings for a vLLM (`openai`) or TEI upstream. A client's base64 is asked of the upstream
 * too: both write it as the client wants it (little-endian float32, standard alphabet), so the gateway passes the upstream's text on instead of printing, reading and encoding 16 x 1024
 * numbers per request (openai-node asks for base64 by default). An upstream that answers with numbers
 * anyway (an older server) has them encoded here; nothing is ever decoded twice.
 */
export function embeddingUpstreamRequest(
  target: UpstreamTarget,
  options: EmbeddingUpstreamOptions,
): UpstreamPathAndBody {
  const body: Record<string, unknown> = {
    model: target.model,
    input: options.input,
    encoding_format: options.encodingFormat,
  };
  if (options.dimensions !== undefined) body.dimensions = options.dimensions;
  if (options.user !== undefined) body.user = options.user;
  return { path: embeddingsUpstreamPath, body };
}
