import type {
  ChatCompletionsRequest,
  ChatMessage,
} from '../schemas/chat-completions-request-schema.js';
import type {
  ResponsesInputItem,
  ResponsesMessageItem,
} from '../schemas/responses-input-schema.js';
import type { ResponsesRequest } from '../schemas/responses-request-schema.js';
import type {
  ResponsesFunctionTool,
  ResponsesText,
  ResponsesToolChoice,
} from '../schemas/responses-tools-schema.js';
import { samplingParameterNames } from '../schemas/sampling-parameters-schema.js';

type UserContent = Extract<ChatMessage, { role: 'user' }>['content'];
type TextPart = { type: 'text'; text: string };
type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

function toUserContent(
  content: Extract<ResponsesMessageItem, { role: 'user' }>['content'],
): UserContent {
  if (typeof content === 'string') return content;
  return content.map((part) =>
    part.type === 'input_text'
      ? { type: 'text' as const, text: part.text }
      : {
          type: 'image_url' as const,
          image_url:
            part.detail === undefined || part.detail === null
              ? { url: part.image_url }
              : { url: part.image_url, detail: part.detail },
        },
  );
}

function toTextParts(
  content: string | ReadonlyArray<{ type: string; text?: string; refusal?: string }>,
): string | TextPart[] {
  if (typeof content === 'string') return content;
  // A replayed refusal is the model's own words: it goes back as text.
  return content.map((part) => ({ type: 'text' as const, text: part.text ?? part.refusal ?? '' }));
}

function toChatMessage(message: ResponsesMessageItem): ChatMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: toUserContent(message.content) };
    case 'assistant':
      return { role: 'assistant', content: toTextParts(message.content) };
    // The completion API's developer role is its system role; chat templates know `system`.
    default:
      return { role: 'system', content: toTextParts(message.content) };
  }
}

/**
 * The input items as chat messages: a function_call joins the assistant turn before it (or starts
 * one) as a tool call, consecutive calls sharing one assistant message as chat parallel calls do; a
 * function_call_output becomes a `tool` message; reasoning items are not sent (their text is the
 * model's, and a chat template drops earlier thinking).
 */
function toChatMessages(items: readonly ResponsesInputItem[], messages: ChatMessage[]): void {
  for (const item of items) {
    if ('role' in item) {
      messages.push(toChatMessage(item));
    } else if (item.type === 'function_call') {
      const call = {
        id: item.call_id,
        type: 'function' as const,
        function: { name: item.name, arguments: item.arguments },
      };
      const last = messages.at(-1);
      if (last?.role === 'assistant')
        (last as AssistantMessage).tool_calls = [
          ...((last as AssistantMessage).tool_calls ?? []),
          call,
        ];
      else messages.push({ role: 'assistant', tool_calls: [call] });
    } else if (item.type === 'function_call_output') {
      messages.push({
        role: 'tool',
        tool_call_id: item.call_id,
        content: toTextParts(item.output),
      });
    }
  }
}

function toChatTools(
  tools: readonly ResponsesFunctionTool[],
): NonNullable<ChatCompletionsRequest['tools']> {
  return tools.map((tool) => {
    const definition: NonNullable<ChatCompletionsRequest['tools']>[number]['function'] = {
      name: tool.name,
    };
    if (tool.description !== undefined && tool.description !== null)
      definition.description = tool.description;
    if (tool.parameters !== undefined && tool.parameters !== null)
      definition.parameters = tool.parameters;
    if (tool.strict !== undefined && tool.strict !== null) definition.strict = tool.strict;
    return { type: 'function', function: definition };
  });
}

function toChatToolChoice(
  choice: ResponsesToolChoice,
): NonNullable<ChatCompletionsRequest['tool_choice']> {
  return typeof choice === 'string'
    ? choice
    : { type: 'function', function: { name: choice.name } };
}

function toResponseFormat(text: ResponsesText): ChatCompletionsRequest['response_format'] {
  const format = text.format;
  if (format === undefined || format === null || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  const jsonSchema: {
    name: string;
    schema: Record<string, unknown>;
    description?: string;
    strict?: boolean;
  } = { name: format.name, schema: format.schema };
  if (format.description !== undefined && format.description !== null)
    jsonSchema.description = format.description;
  if (format.strict !== undefined && format.strict !== null) jsonSchema.strict = format.strict;
  return { type: 'json_schema', json_schema: jsonSchema };
}

/** The client asked for token log-probabilities of the output text. */
export function wantsLogprobs(request: ResponsesRequest): boolean {
  return (
    request.top_logprobs !== undefined ||
    request.include?.includes('message.output_text.logprobs') === true
  );
}

/**
 * A responses request as the chat request the upstream is sent (vLLM's own /v1/responses ignores most
 * sampling parameters, so the gateway always goes through chat): instructions become the first system
 * message, the input user or chat messages, function tools chat tools, text.format response_format,
 * max_output_tokens max_tokens, reasoning.effort reasoning_effort. Fields with no chat meaning (store,
 * metadata, include...) are answered by the response object, never sent upstream.
 */
export function responsesToChatRequest(request: ResponsesRequest): ChatCompletionsRequest {
  const messages: ChatMessage[] = [];
  if (request.instructions !== undefined)
    messages.push({ role: 'system', content: request.instructions });
  if (typeof request.input === 'string') messages.push({ role: 'user', content: request.input });
  else toChatMessages(request.input, messages);

  const chat: ChatCompletionsRequest = { model: request.model, messages };
  if (request.stream !== undefined) chat.stream = request.stream;
  if (request.temperature !== undefined) chat.temperature = request.temperature;
  if (request.top_p !== undefined) chat.top_p = request.top_p;
  const maxTokens = request.max_tokens ?? request.max_output_tokens;
  if (maxTokens !== undefined) chat.max_tokens = maxTokens;
  if (request.user !== undefined) chat.user = request.user;
  if (request.tools !== undefined && request.tools.length > 0)
    chat.tools = toChatTools(request.tools);
  if (request.tool_choice !== undefined) chat.tool_choice = toChatToolChoice(request.tool_choice);
  if (request.parallel_tool_calls !== undefined)
    chat.parallel_tool_calls = request.parallel_tool_calls;
  const responseFormat = request.text === undefined ? undefined : toResponseFormat(request.text);
  if (responseFormat !== undefined) chat.response_format = responseFormat;
  if (wantsLogprobs(request)) {
    chat.logprobs = true;
    if (request.top_logprobs !== undefined) chat.top_logprobs = request.top_logprobs;
  }
  const effort = request.reasoning?.effort;
  // The wider responses values reach the rule as they are; it refuses or ignores what a model does not take.
  if (effort !== undefined && effort !== null)
    (chat as { reasoning_effort?: string }).reasoning_effort = effort;
  const target = chat as Record<string, unknown>;
  for (const name of samplingParameterNames) {
    if (request[name] !== undefined) target[name] = request[name];
  }
  return chat;
}
