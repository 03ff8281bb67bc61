import { GatewayError } from '../errors/gateway-error.js';
import type { IdSource } from '../ports/ports.js';

/*
 * The Message object of the Messages API and the parts of it both the JSON answer and the event
 * stream build: ids, stop reasons, usage.
 */

export type MessagesStopReason =
  'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

export type MessagesContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export interface MessagesUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface MessageObject {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: MessagesContentBlock[];
  stop_reason: MessagesStopReason | null;
  stop_sequence: string | null;
  usage: MessagesUsage;
}

/** `msg_<hex>`, the id of a Message object. */
export function newMessageId(ids: IdSource): string {
  return `msg_${ids.hex(24)}`;
}

/** `toolu_<hex>` for a tool call the upstream sent without an id (the client answers by this id). */
export function newToolUseId(ids: IdSource): string {
  return `toolu_${ids.hex(24)}`;
}

/**
 * Why generation stopped, from the chat finish_reason and vLLM's `stop_reason` (the stop string that
 * matched): a stop on one of the request's stop_sequences is `stop_sequence` with that string.
 */
export function toStopReason(
  finishReason: string | null | undefined,
  matched: unknown,
  stopSequences: readonly string[] | undefined,
  calledTools: boolean,
): { stop_reason: MessagesStopReason; stop_sequence: string | null } {
  if (finishReason === 'length') return { stop_reason: 'max_tokens', stop_sequence: null };
  if (calledTools || finishReason === 'tool_calls')
    return { stop_reason: 'tool_use', stop_sequence: null };
  if (finishReason === 'content_filter') return { stop_reason: 'refusal', stop_sequence: null };
  if (typeof matched === 'string' && stopSequences?.includes(matched) === true)
    return { stop_reason: 'stop_sequence', stop_sequence: matched };
  return { stop_reason: 'end_turn', stop_sequence: null };
}

/** Chat usage as the Messages API counts it: cached prompt tokens apart from `input_tokens`. */
export function toMessagesUsage(
  usage:
    | {
        prompt_tokens: number;
        completion_tokens?: number | undefined;
        prompt_tokens_details?: { cached_tokens?: number | null } | null | undefined;
      }
    | undefined,
): MessagesUsage {
  const prompt = usage?.prompt_tokens ?? 0;
  const cached = Math.min(usage?.prompt_tokens_details?.cached_tokens ?? 0, prompt);
  return {
    input_tokens: prompt - cached,
    output_tokens: usage?.completion_tokens ?? 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
  };
}

/**
 * A tool call's arguments as the `input` object a tool_use block holds. Arguments that are not a JSON
 * object give a client nothing to run: the upstream's answer is unusable (502, naming where).
 */
export function toolInput(argumentsText: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(argumentsText.length === 0 ? '{}' : argumentsText);
  } catch {
    value = undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw GatewayError.upstreamBodyInvalid(
      'The model server answered with tool call arguments that are not a JSON object.',
      `${where}: expected a JSON object`,
    );
  return value as Record<string, unknown>;
}
