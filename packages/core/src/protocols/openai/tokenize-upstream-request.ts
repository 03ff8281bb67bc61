import type { UpstreamTarget } from '../../ports/ports.js';
import type { TokenizeRequest } from '../../schemas/tokenize-request-schema.js';
import type { ChatPromptToCount, UpstreamPathAndBody } from '../upstream-protocol.js';

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

/**
 * vLLM's `/tokenize` in its chat form `{model, messages, tools}`: the prompt as the chat template
 * renders it, generation prompt included, which is what a chat request with these messages reads.
 */
export function tokenizeChatUpstreamRequest(
  target: UpstreamTarget,
  prompt: ChatPromptToCount,
): UpstreamPathAndBody {
  const body: Record<string, unknown> = { model: target.model, messages: prompt.messages };
  if (prompt.tools !== undefined && prompt.tools.length > 0) body.tools = prompt.tools;
  return { path: '/tokenize', body };
}
