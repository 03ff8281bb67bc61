import { GatewayError } from '../errors/gateway-error.js';

/** One tool call of an upstream chat answer, as the gateway passes it on. */
export interface ChatToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * The tool calls of a non-streamed upstream message (`{id, type: "function", function: {name,
 * arguments}}`), read for the responses bridge. A call without a function name cannot be answered by
 * any client: the upstream's answer is unusable (502, naming where).
 */
export function readChatToolCalls(
  toolCalls: readonly unknown[] | null | undefined,
  newCallId: () => string,
): ChatToolCall[] {
  if (toolCalls === null || toolCalls === undefined) return [];
  return toolCalls.map((value, index) => {
    const call =
      typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
    const fn =
      typeof call.function === 'object' && call.function !== null
        ? (call.function as Record<string, unknown>)
        : {};
    if (typeof fn.name !== 'string' || fn.name.length === 0) {
      throw GatewayError.upstreamBodyInvalid(
        'The model server answered with a tool call without a function name.',
        `choices[0].message.tool_calls[${index}].function.name: expected a string`,
      );
    }
    return {
      id: typeof call.id === 'string' && call.id.length > 0 ? call.id : newCallId(),
      name: fn.name,
      // Some servers send the arguments as an object rather than its JSON text.
      arguments:
        typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}),
    };
  });
}
