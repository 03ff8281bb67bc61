import type { EmbeddingsInput } from '../../schemas/embeddings-request-schema.js';
import type { UpstreamTarget } from '../../handlers/ports.js';
import { GatewayError } from '../../errors/gateway-error.js';

export interface UpstreamPathAndBody {
  path: string;
  body: Record<string, unknown>;
}

/** The one path both vLLM and TEI serve OpenAI-style embeddings on (protocols.md 3.2, 5.3). */
export const embeddingsUpstreamPath = '/v1/embeddings';

/** A model configured on an upstream whose protocol cannot serve the endpoint: the operator's mistake, not the client's. */
export function unsupportedUpstreamProtocol(modelId: string, protocol: string): GatewayError {
  return GatewayError.upstreamFailed(`The model server configured for '${modelId}' speaks the ${protocol} protocol, which cannot serve this endpoint.`);
}

export interface EmbeddingUpstreamOptions {
  input: EmbeddingsInput;
  dimensions: number | undefined;
  user: string | undefined;
}

/**
 * POST /v1/embeddings for a vLLM (`openai`) or TEI upstream. Floats are always asked for: the gateway
 * encodes base64 itself, so the layout never depends on the upstream's version or host byte order and
 * nothing is decoded twice (protocols.md 9).
 */
export function embeddingUpstreamRequest(target: UpstreamTarget, modelId: string, options: EmbeddingUpstreamOptions): UpstreamPathAndBody {
  if (target.protocol !== 'openai' && target.protocol !== 'tei') throw unsupportedUpstreamProtocol(modelId, target.protocol);
  const body: Record<string, unknown> = { model: target.model, input: options.input, encoding_format: 'float' };
  if (options.dimensions !== undefined) body.dimensions = options.dimensions;
  if (options.user !== undefined) body.user = options.user;
  return { path: embeddingsUpstreamPath, body };
}
