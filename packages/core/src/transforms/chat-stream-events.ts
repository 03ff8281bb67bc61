import { sanitizeUpstreamMessage } from '../errors/sanitize-upstream-message.js';
import { isUpstreamError } from '../errors/upstream-error.js';
import type { SseEvent } from '../sse/sse-event.js';

export const doneEvent: SseEvent = { data: '[DONE]' };

/** Why a stream ended badly, as the terminating error object carries it. */
export interface StreamFailure {
  message: string;
  type: 'api_error';
  param: string | null;
  code: 'upstream_error' | 'upstream_timeout';
}

/** One upstream chat stream event, classified; the chunk's JSON is parsed exactly once. */
export type ChatStreamItem =
  | { kind: 'done' }
  | { kind: 'chunk'; chunk: Record<string, unknown> }
  | { kind: 'failure'; failure: StreamFailure };

export const streamEndedEarly: StreamFailure = {
  message: 'The model server ended the stream before it was complete.',
  type: 'api_error',
  param: null,
  code: 'upstream_error',
};

const invalidEvent: StreamFailure = {
  message: 'The model server sent an unreadable stream event.',
  type: 'api_error',
  param: null,
  code: 'upstream_error',
};

export function readChatStreamEvent(event: SseEvent): ChatStreamItem {
  if (event.data === '[DONE]') return { kind: 'done' };
  let value: unknown;
  try {
    value = JSON.parse(event.data);
  } catch {
    return { kind: 'failure', failure: invalidEvent };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { kind: 'failure', failure: invalidEvent };
  const chunk = value as Record<string, unknown>;
  // An error after the 200 comes as one `data: {"error": {...}}` event (code an integer).
  if (typeof chunk.error === 'object' && chunk.error !== null) {
    const error = chunk.error as Record<string, unknown>;
    const message =
      typeof error.message === 'string'
        ? sanitizeUpstreamMessage(error.message)
        : 'The model server failed while generating.';
    return {
      kind: 'failure',
      failure: {
        message,
        type: 'api_error',
        param: typeof error.param === 'string' ? error.param : null,
        code: 'upstream_error',
      },
    };
  }
  return { kind: 'chunk', chunk };
}

/** A thrown iteration failure (an UpstreamError from the transport, or anything else) as a failure. */
export function streamFailureFrom(error: unknown): StreamFailure {
  if (isUpstreamError(error)) {
    const message = sanitizeUpstreamMessage(error.message);
    return error.kind === 'timeout'
      ? {
          message: message || 'The model server stopped sending events in time.',
          type: 'api_error',
          param: null,
          code: 'upstream_timeout',
        }
      : {
          message: message || 'The connection to the model server failed.',
          type: 'api_error',
          param: null,
          code: 'upstream_error',
        };
  }
  return {
    message: 'The stream from the model server failed.',
    type: 'api_error',
    param: null,
    code: 'upstream_error',
  };
}

export interface StreamUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/** The `usage` of a chunk when it has one with numeric counts. */
export function readChunkUsage(chunk: Record<string, unknown>): StreamUsage | undefined {
  const usage = chunk.usage;
  if (typeof usage !== 'object' || usage === null) return undefined;
  const record = usage as Record<string, unknown>;
  if (typeof record.prompt_tokens !== 'number' || typeof record.completion_tokens !== 'number')
    return undefined;
  return usage as StreamUsage;
}

/** The token-count fields of a stream result's meta (ResultMeta), filled in as the stream runs. */
export interface TokenCounts {
  inputTokens?: number;
  outputTokens?: number;
}

/** Keeps the latest token counts on the result's meta, for the log line written when the stream ends. */
export function recordUsage(meta: TokenCounts, usage: StreamUsage): void {
  meta.inputTokens = usage.prompt_tokens;
  meta.outputTokens = usage.completion_tokens;
}
