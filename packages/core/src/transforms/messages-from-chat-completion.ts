import type { IdSource } from '../ports/ports.js';
import type { UpstreamChatCompletion } from '../schemas/upstream-chat-completion-schema.js';
import { readChatToolCalls } from './chat-tool-calls.js';
import {
  newMessageId,
  newToolUseId,
  toMessagesUsage,
  toolInput,
  toStopReason,
} from './messages-object.js';
import type { MessageObject, MessagesContentBlock } from './messages-object.js';

export interface MessagesShapeOptions {
  model: string;
  /** The model hides its thinking (docs/design.md): no thinking blocks. */
  clearThinking: boolean;
  ids: IdSource;
  stopSequences: readonly string[] | undefined;
}

/**
 * The Message object from a chat completion, in the order Claude answers: thinking (where the
 * model's rules expose it), text, then one tool_use block per tool call.
 */
export function chatCompletionToMessage(
  completion: UpstreamChatCompletion,
  options: MessagesShapeOptions,
): MessageObject {
  const choice = completion.choices[0];
  const content: MessagesContentBlock[] = [];
  const reasoning = options.clearThinking
    ? undefined
    : (choice?.message.reasoning ?? choice?.message.reasoning_content ?? undefined);
  if (reasoning !== undefined && reasoning.length > 0)
    // No signature can be made for another model's thinking; clients replay it and it is dropped.
    content.push({ type: 'thinking', thinking: reasoning, signature: '' });
  const calls = readChatToolCalls(choice?.message.tool_calls, () => newToolUseId(options.ids));
  const text = choice?.message.content ?? '';
  if (text.length > 0 || (calls.length === 0 && content.length === 0))
    content.push({ type: 'text', text });
  calls.forEach((call, index) => {
    content.push({
      type: 'tool_use',
      id: call.id,
      name: call.name,
      input: toolInput(
        call.arguments,
        `choices[0].message.tool_calls[${index}].function.arguments`,
      ),
    });
  });
  return {
    id: newMessageId(options.ids),
    type: 'message',
    role: 'assistant',
    model: options.model,
    content,
    ...toStopReason(
      choice?.finish_reason,
      choice?.stop_reason,
      options.stopSequences,
      calls.length > 0,
    ),
    usage: toMessagesUsage(completion.usage ?? undefined),
  };
}
