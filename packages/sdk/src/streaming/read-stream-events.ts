import type { SseEvent } from '@infergate/core';
import { APIConnectionError, APIUserAbortError } from '../errors/connection-errors.js';
import { InfergateError, isInfergateError } from '../errors/infergate-error.js';
import { readSseMessages } from './read-sse-messages.js';

/** What an SSE message means to a stream: an event to yield, and whether the stream is over. */
export interface Interpretation<Event> {
  event?: Event;
  end?: boolean;
}

export interface StreamSource {
  /**
   * The response whose body is the stream. The Response itself is kept, not only its body: fetch
   * (undici) cancels the body of a Response that was garbage collected before its body was read.
   */
  response: Response & { body: ReadableStream<Uint8Array> };
  requestId: string | null;
  signal: AbortSignal;
  /** The caller's own signal, to tell its abort from a `stream.abort()`. */
  userSignal: AbortSignal | undefined;
  release(): void;
}

export function parseEventJson(message: SseEvent, requestId: string | null): unknown {
  try {
    return JSON.parse(message.data);
  } catch (error) {
    throw new InfergateError({
      message: 'The gateway sent a stream event that is not JSON.',
      requestId,
      body: message.data,
      cause: error,
    });
  }
}

/**
 * Yields the events `interpret` finds until it reports the end. A stream that closes before that is
 * an APIConnectionError (a truncated answer must never pass as a complete one); an abort is an
 * APIUserAbortError; errors `interpret` throws (in-stream error events) pass through.
 */
export async function* readStreamEvents<Event>(
  source: StreamSource,
  interpret: (message: SseEvent) => Interpretation<Event>,
): AsyncGenerator<Event, void, undefined> {
  try {
    for await (const message of readSseMessages(source.response.body)) {
      const { event, end } = interpret(message);
      if (event !== undefined) {
        yield event;
        // Events already buffered when the abort came must not keep flowing: aborted means no more.
        if (source.signal.aborted)
          throw new APIUserAbortError(source.userSignal?.reason ?? source.signal.reason);
      }
      if (end === true) return;
    }
    throw new APIConnectionError({ message: 'The stream ended before its final event.' });
  } catch (error) {
    if (isInfergateError(error)) throw error;
    if (source.signal.aborted)
      throw new APIUserAbortError(source.userSignal?.reason ?? source.signal.reason);
    throw new APIConnectionError({ message: 'The stream broke off.', cause: error });
  } finally {
    source.release();
  }
}
