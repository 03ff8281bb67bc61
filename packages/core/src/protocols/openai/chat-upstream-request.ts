import type { ChatTemplateSettings } from '../../rules/reasoning-effort-rule.js';
import type { ChatCompletionsRequest } from '../../schemas/chat-completions-request-schema.js';

export interface ChatUpstreamRequest {
  /** The JSON body for the upstream's `/v1/chat/completions` (openai protocol, vLLM-style). */
  body: Record<string, unknown>;
  /** Whether the client asked for the usage chunk (`stream_options.include_usage`); the upstream always sends it. */
  includeUsage: boolean;
}

// Accepted from clients because the completion API defines them, but nothing a chat upstream acts on:
// never sent, so that a strict OpenAI-compatible server behind the gateway is not sent fields it refuses.
const clientOnlyFields = [
  'store',
  'metadata',
  'service_tier',
  'safety_identifier',
  'prompt_cache_key',
  'verbosity',
  'prediction',
  'modalities',
] as const;

type Message = ChatCompletionsRequest['messages'][number];

// An assistant message replayed from our own answer carries `tool_calls: []`: vLLM's newest versions
// refuse an empty list, and a null one is no list at all.
function hasNoToolCalls(message: Message): boolean {
  return (
    message.role === 'assistant' &&
    message.tool_calls !== undefined &&
    (message.tool_calls === null || message.tool_calls.length === 0)
  );
}

function withoutEmptyToolCalls(message: Message): Message {
  if (!hasNoToolCalls(message)) return message;
  const { tool_calls: _empty, ...rest } = message as Extract<Message, { role: 'assistant' }>;
  return rest;
}

/**
 * The upstream chat request, exact in what it sends: the upstream's model name; vLLM's
 * `chat_template_kwargs` only when a model rule needs them, reasoning_effort only inside them; tools
 * only when there are any (an empty list, or tool_choice without tools, is refused upstream); on a
 * stream, `stream_options` with usage always on, since the gateway logs token counts, and
 * `continuous_usage_stats` only when the client asked for it.
 */
export function buildChatUpstreamRequest(
  request: ChatCompletionsRequest,
  upstreamModel: string,
  settings: ChatTemplateSettings,
): ChatUpstreamRequest {
  const {
    model: _model,
    reasoning_effort: _effort,
    stream_options: streamOptions,
    ...rest
  } = request;
  // Copied with Object.assign: on Node 20's V8, an object spread followed by a key its source lacks
  // (`{ ...rest, model }`) makes a new hidden class on every call, old-space garbage per request that
  // only a full collection frees.
  const body: Record<string, unknown> = Object.assign({}, rest);
  body.model = upstreamModel;
  for (const field of clientOnlyFields) delete body[field];
  if (request.messages.some(hasNoToolCalls))
    body.messages = request.messages.map(withoutEmptyToolCalls);
  if (request.tools?.length === 0 || request.tools === undefined) {
    delete body.tools;
    delete body.tool_choice;
    delete body.parallel_tool_calls;
  }
  if (settings.enable_thinking || settings.reasoning_effort !== undefined)
    body.chat_template_kwargs = { ...settings };
  const includeUsage = request.stream === true && streamOptions?.include_usage === true;
  if (request.stream === true) {
    // Continuous usage goes on every chunk; only ask for it when the client will be shown it.
    body.stream_options =
      includeUsage && streamOptions?.continuous_usage_stats === true
        ? { include_usage: true, continuous_usage_stats: true }
        : { include_usage: true };
  }
  return { body, includeUsage };
}
