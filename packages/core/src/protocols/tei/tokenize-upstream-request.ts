import type { UpstreamTarget } from '../../ports/ports.js';
import type { TokenizeRequest } from '../../schemas/tokenize-request-schema.js';
import type { UpstreamPathAndBody } from '../upstream-protocol.js';

/**
 * TEI's `/tokenize` takes `{inputs}` and knows one model only, so none is named. `add_special_tokens` is
 * sent only when the client set it, so the server keeps its own default (true).
 */
export function tokenizeUpstreamRequest(
  _target: UpstreamTarget,
  request: TokenizeRequest,
): UpstreamPathAndBody {
  const body: Record<string, unknown> = { inputs: request.prompt };
  if (request.add_special_tokens !== undefined)
    body.add_special_tokens = request.add_special_tokens;
  return { path: '/tokenize', body };
}
