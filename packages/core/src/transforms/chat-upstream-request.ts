import type { ChatTemplateSettings } from '../rules/reasoning-effort-rule.js';
import type { ChatCompletionsRequest } from '../schemas/chat-completions-request-schema.js';

export interface ChatUpstreamRequest {
  /** The JSON body for the upstream's `/v1/chat/completions` (openai protocol, vLLM-style). */
  body: Record<string, unknown>;
  /** Whether the client asked for the usage chunk (`stream_options.include_usage`); the upstream always sends it. */
  includeUsage: boolean;
}

/**
 * The upstream chat request: the upstream's model name, the model's fixed settings as
 * `chat_template_kwargs` (never the client's: the schema refuses that key), reasoning_effort only
 * inside them (protocols 1.4), and on a stream explicit `stream_options` with usage always on,
 * because the gateway logs token counts (vLLM's default for a missing flag differs by version).
 */
export function buildChatUpstreamRequest(request: ChatCompletionsRequest, upstreamModel: string, settings: ChatTemplateSettings): ChatUpstreamRequest {
  const { model: _model, reasoning_effort: _effort, stream_options: streamOptions, ...rest } = request;
  const body: Record<string, unknown> = { ...rest, model: upstreamModel, chat_template_kwargs: { ...settings } };
  const includeUsage = request.stream === true && streamOptions?.include_usage === true;
  if (request.stream === true) {
    // Continuous usage goes on every chunk; only ask for it when the client will be shown it.
    body.stream_options = { include_usage: true, continuous_usage_stats: includeUsage && streamOptions?.continuous_usage_stats === true };
  }
  return { body, includeUsage };
}
