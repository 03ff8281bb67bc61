import type { PromptMessage } from './prompt-messages.js';
import { messageText } from './prompt-messages.js';

const label = '[infergate local backend]';

/** The trailing `tool` messages: the results an agent sends back after the calls it ran. */
export function trailingToolResults(messages: readonly PromptMessage[]): PromptMessage[] {
  const start = messages.findLastIndex((message) => message.role !== 'tool');
  return messages.slice(start + 1);
}

/**
 * The answer after tool results: each quoted with its tool's name (the message's `name`, else the name of the
 * call its `tool_call_id` answers), so an agent loop ends with a final answer that carries the results.
 */
export function toolResultReply(
  messages: readonly PromptMessage[],
  results: readonly PromptMessage[],
): string {
  const names = new Map<string, string>();
  for (const message of messages)
    for (const call of message.toolCalls) if (call.id !== undefined) names.set(call.id, call.name);
  const quotes = results.map((result) => {
    const name =
      result.name ?? (result.toolCallId === undefined ? undefined : names.get(result.toolCallId));
    return `The tool ${name ?? '(unnamed)'} returned: ${messageText(result)}.`;
  });
  return `${label} ${quotes.join(' ')}`;
}
