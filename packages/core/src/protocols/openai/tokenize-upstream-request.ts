import type { UpstreamTarget } from '../../ports/ports.js';
import type { TokenizeRequest } from '../../schemas/tokenize-request-schema.js';
import type { UpstreamPathAndBody } from '../upstream-protocol.js';

/**
 * vLLM's `/tokenize` in its completion form `{model, prompt}`. `add_special_tokens`
 * is sent only when the client set it, so the server keeps its own default (true).
 */
export function tokenizeUpstreamRequest(
  target: UpstreamTarget,
  request: TokenizeRequest,
): UpstreamPathAndBody {
  const body: Record<string, unknown> = { model: target.model, prompt: request.prompt };
  if (request.add_special_tokens !== undefined)
    body.add_special_tokens = request.add_special_tokens;
  return { path: '/tokenize', body };
}
