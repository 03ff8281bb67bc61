import type { UpstreamTarget } from '../../handlers/ports.js';
import type { TokenizeRequest } from '../../schemas/tokenize-request-schema.js';
import { unsupportedUpstreamProtocol } from './embedding-upstream-request.js';
import type { UpstreamPathAndBody } from './embedding-upstream-request.js';

/**
 * `/tokenize` in the target's protocol: vLLM's completion form `{model, prompt}` (protocols.md 3.1, 9)
 * or TEI's `{inputs}`, whose answer is a list of token objects per input. `add_special_tokens` is sent
 * only when the client set it, so each server keeps its own default (true for both).
 */
export function tokenizeUpstreamRequest(target: UpstreamTarget, modelId: string, request: TokenizeRequest): UpstreamPathAndBody {
  const special = request.add_special_tokens === undefined ? {} : { add_special_tokens: request.add_special_tokens };
  switch (target.protocol) {
    case 'openai':
      return { path: '/tokenize', body: { model: target.model, prompt: request.prompt, ...special } };
    case 'tei':
      return { path: '/tokenize', body: { inputs: request.prompt, ...special } };
    default:
      throw unsupportedUpstreamProtocol(modelId, target.protocol);
  }
}
