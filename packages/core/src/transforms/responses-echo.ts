import type { ChatCompletionsRequest } from '../schemas/chat-completions-request-schema.js';
import type { ResponsesRequest } from '../schemas/responses-request-schema.js';
import type { ResponsesEcho } from './responses-object.js';

/** What the model rules applied, from the chat request the upstream was sent. */
export interface AppliedSettings {
  chat: ChatCompletionsRequest;
  /** The reasoning effort sent upstream, undefined when the model takes none. */
  reasoningEffort: string | undefined;
}

/**
 * The request values a response object reports: what was applied rather than what was asked (a
 * temperature dropped by a backend-enforced model is null, an ignored reasoning effort gives
 * `reasoning: null`), the completion API's defaults where the request said nothing.
 */
export function responsesEcho(request: ResponsesRequest, applied: AppliedSettings): ResponsesEcho {
  return {
    instructions: request.instructions ?? null,
    max_output_tokens: applied.chat.max_tokens ?? null,
    max_tool_calls: request.max_tool_calls ?? null,
    metadata: request.metadata ?? null,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    reasoning:
      applied.reasoningEffort === undefined
        ? null
        : { effort: applied.reasoningEffort, summary: request.reasoning?.summary ?? null },
    service_tier: request.service_tier ?? 'auto',
    temperature: applied.chat.temperature ?? null,
    text: request.text ?? null,
    tool_choice: request.tool_choice ?? 'auto',
    tools: (request.tools ?? []).map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description ?? null,
      parameters: tool.parameters ?? null,
      strict: tool.strict ?? null,
    })),
    top_logprobs: request.top_logprobs ?? null,
    top_p: applied.chat.top_p ?? null,
    truncation: request.truncation ?? 'disabled',
    user: request.user ?? null,
  };
}
