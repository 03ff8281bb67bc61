import type { ChatCompletionsRequest, ChatMessage } from '../schemas/chat-completions-request-schema.js';
import { samplingParameterNames } from '../schemas/sampling-parameters-schema.js';
import type { ResponsesInputMessage, ResponsesRequest } from '../schemas/responses-request-schema.js';

type UserContent = Extract<ChatMessage, { role: 'user' }>['content'];
type TextContent = Extract<ChatMessage, { role: 'system' }>['content'];

function toUserContent(content: Extract<ResponsesInputMessage, { role: 'user' }>['content']): UserContent {
  if (typeof content === 'string') return content;
  return content.map((part) =>
    part.type === 'input_text'
      ? { type: 'text' as const, text: part.text }
      : { type: 'image_url' as const, image_url: part.detail === undefined ? { url: part.image_url } : { url: part.image_url, detail: part.detail } },
  );
}

function toTextContent(content: string | ReadonlyArray<{ text: string }>): TextContent {
  if (typeof content === 'string') return content;
  return content.map((part) => ({ type: 'text' as const, text: part.text }));
}

function toChatMessage(message: ResponsesInputMessage): ChatMessage {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: toUserContent(message.content) };
    case 'assistant':
      return { role: 'assistant', content: toTextContent(message.content) };
    default:
      return { role: message.role, content: toTextContent(message.content) };
  }
}

/**
 * A responses request as the chat request the upstream is sent (protocols 1.3: vLLM's own
 * /v1/responses ignores most extra sampling parameters, so the gateway always goes through chat):
 * instructions become the first system message, a string input one user message, input_text a text
 * part, input_image an image_url part, and max_tokens or max_output_tokens the chat max_tokens.
 */
export function responsesToChatRequest(request: ResponsesRequest): ChatCompletionsRequest {
  const messages: ChatMessage[] = [];
  if (request.instructions !== undefined) messages.push({ role: 'system', content: request.instructions });
  if (typeof request.input === 'string') messages.push({ role: 'user', content: request.input });
  else for (const message of request.input) messages.push(toChatMessage(message));

  const chat: ChatCompletionsRequest = { model: request.model, messages };
  if (request.stream !== undefined) chat.stream = request.stream;
  if (request.temperature !== undefined) chat.temperature = request.temperature;
  if (request.top_p !== undefined) chat.top_p = request.top_p;
  const maxTokens = request.max_tokens ?? request.max_output_tokens;
  if (maxTokens !== undefined) chat.max_tokens = maxTokens;
  if (request.user !== undefined) chat.user = request.user;
  if (request.reasoning?.effort !== undefined) chat.reasoning_effort = request.reasoning.effort;
  const target = chat as Record<string, unknown>;
  for (const name of samplingParameterNames) {
    if (request[name] !== undefined) target[name] = request[name];
  }
  return chat;
}
