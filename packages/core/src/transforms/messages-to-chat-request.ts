import type {
  ChatCompletionsRequest,
  ChatMessage,
} from '../schemas/chat-completions-request-schema.js';
import { imageDataUrl } from '../schemas/messages-content-schema.js';
import type {
  MessagesAssistantBlock,
  MessagesImageBlock,
  MessagesMessage,
  MessagesTool,
  MessagesToolChoice,
  MessagesUserBlock,
} from '../schemas/messages-content-schema.js';
import type { MessagesRequest } from '../schemas/messages-request-schema.js';

type UserPart = Exclude<Extract<ChatMessage, { role: 'user' }>['content'], string>[number];
type TextPart = { type: 'text'; text: string };
type ToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };
type ToolResultBlock = Extract<MessagesUserBlock, { type: 'tool_result' }>;

function imagePart(block: MessagesImageBlock): UserPart {
  return { type: 'image_url', image_url: { url: imageDataUrl(block) } };
}

/**
 * A tool_result as a chat `tool` message: its text, with `is_error` said in words since chat has no
 * such flag; its images go to a user message after the tool messages (a chat tool message is text only).
 */
function toolMessage(block: ToolResultBlock, images: UserPart[]): ChatMessage {
  const content = block.content ?? '';
  const parts: TextPart[] = [];
  if (typeof content === 'string') parts.push({ type: 'text', text: content });
  else
    for (const part of content) {
      if (part.type === 'text') parts.push({ type: 'text', text: part.text });
      else images.push(imagePart(part));
    }
  if (block.is_error === true) {
    const first = parts[0];
    if (first === undefined) parts.push({ type: 'text', text: 'Error' });
    else first.text = `Error: ${first.text}`;
  }
  const text = typeof content === 'string' || parts.length === 1 ? (parts[0]?.text ?? '') : parts;
  return { role: 'tool', tool_call_id: block.tool_use_id, content: text };
}

/** tool_result blocks become tool messages, in order; the other blocks one user message after them. */
function pushUser(
  content: Extract<MessagesMessage, { role: 'user' }>['content'],
  messages: ChatMessage[],
): void {
  if (typeof content === 'string') {
    messages.push({ role: 'user', content });
    return;
  }
  const parts: UserPart[] = [];
  for (const block of content) {
    if (block.type === 'tool_result') messages.push(toolMessage(block, parts));
    else if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else parts.push(imagePart(block));
  }
  if (parts.length > 0) messages.push({ role: 'user', content: parts });
}

/** Text blocks as the content, tool_use blocks as tool calls; thinking blocks are not sent. */
function pushAssistant(
  content: string | readonly MessagesAssistantBlock[],
  messages: ChatMessage[],
): void {
  if (typeof content === 'string') {
    messages.push({ role: 'assistant', content });
    return;
  }
  const parts: TextPart[] = [];
  const calls: ToolCall[] = [];
  for (const block of content) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use')
      calls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input) },
      });
  }
  const message: Extract<ChatMessage, { role: 'assistant' }> = { role: 'assistant' };
  if (parts.length > 0) message.content = parts;
  if (calls.length > 0) message.tool_calls = calls;
  // A turn of thinking alone says nothing a chat template keeps.
  if (parts.length > 0 || calls.length > 0) messages.push(message);
}

/** The chat messages of a Messages request's system and messages. */
export function messagesToChatMessages(
  system: MessagesRequest['system'],
  input: readonly MessagesMessage[],
): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (typeof system === 'string') messages.push({ role: 'system', content: system });
  else if (system !== undefined && system.length > 0)
    messages.push({
      role: 'system',
      content: system.map((block) => ({ type: 'text' as const, text: block.text })),
    });
  for (const message of input) {
    if (message.role === 'user') pushUser(message.content, messages);
    else pushAssistant(message.content, messages);
  }
  return messages;
}

export function toChatTools(
  tools: readonly MessagesTool[],
): NonNullable<ChatCompletionsRequest['tools']> {
  return tools.map((tool) => {
    const definition: NonNullable<ChatCompletionsRequest['tools']>[number]['function'] = {
      name: tool.name,
    };
    if (tool.description !== undefined && tool.description !== null)
      definition.description = tool.description;
    definition.parameters = tool.input_schema;
    return { type: 'function', function: definition };
  });
}

function toChatToolChoice(
  choice: MessagesToolChoice,
): NonNullable<ChatCompletionsRequest['tool_choice']> {
  switch (choice.type) {
    case 'auto':
      return 'auto';
    case 'any':
      return 'required';
    case 'none':
      return 'none';
    default:
      return { type: 'function', function: { name: choice.name } };
  }
}

/**
 * A Messages request as the chat request the upstream is sent: system becomes the first system
 * message, tool_result blocks tool messages, tool_use blocks tool calls, custom tools chat tools,
 * tool_choice `any` `required`, stop_sequences stop, output_config.format response_format,
 * output_config.effort reasoning_effort. `thinking`, `metadata`, `service_tier` and
 * `cache_control` have no chat meaning and are never sent (thinking follows the model's rule).
 */
export function messagesToChatRequest(request: MessagesRequest): ChatCompletionsRequest {
  const chat: ChatCompletionsRequest = {
    model: request.model,
    messages: messagesToChatMessages(request.system, request.messages),
    max_tokens: request.max_tokens,
  };
  if (request.stream !== undefined) chat.stream = request.stream;
  if (request.temperature !== undefined) chat.temperature = request.temperature;
  if (request.top_p !== undefined) chat.top_p = request.top_p;
  if (request.top_k !== undefined) chat.top_k = request.top_k;
  if (request.stop_sequences !== undefined && request.stop_sequences.length > 0)
    chat.stop = request.stop_sequences;
  // tool_choice none with tools: the tools stay (a template may mention them), the model calls none.
  if (request.tools !== undefined && request.tools.length > 0) {
    chat.tools = toChatTools(request.tools);
    if (request.tool_choice !== undefined) {
      chat.tool_choice = toChatToolChoice(request.tool_choice);
      if (
        'disable_parallel_tool_use' in request.tool_choice &&
        request.tool_choice.disable_parallel_tool_use === true
      )
        chat.parallel_tool_calls = false;
    }
  }
  const format = request.output_config?.format ?? request.output_format;
  // Chat's json_schema needs a name, which the Messages API's format has not.
  if (format !== undefined && format !== null)
    chat.response_format = {
      type: 'json_schema',
      json_schema: { name: 'output', schema: format.schema },
    };
  const effort = request.output_config?.effort;
  // The wider Messages values reach the rule as they are; it refuses or ignores what a model does not take.
  if (effort !== undefined && effort !== null)
    (chat as { reasoning_effort?: string }).reasoning_effort = effort;
  return chat;
}
