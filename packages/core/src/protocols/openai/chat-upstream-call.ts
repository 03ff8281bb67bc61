import type { UpstreamTarget } from '../../ports/ports.js';
import type { ChatTemplateSettings } from '../../rules/reasoning-effort-rule.js';
import type { ChatCompletionsRequest } from '../../schemas/chat-completions-request-schema.js';
import type { ChatUpstreamCall } from '../upstream-protocol.js';
import { buildChatUpstreamRequest } from './chat-upstream-request.js';

/** Where vLLM and every OpenAI-compatible server take chat completions, streamed or not. */
export const chatCompletionsPath = '/v1/chat/completions';

/** The chat request for the target's model, with the path it goes to. */
export function chatUpstreamCall(
  target: UpstreamTarget,
  chat: ChatCompletionsRequest,
  settings: ChatTemplateSettings,
): ChatUpstreamCall {
  const { body, includeUsage } = buildChatUpstreamRequest(chat, target.model, settings);
  return { path: chatCompletionsPath, body, includeUsage };
}
