import type { AbortSignalLike } from '@infergate/core';
import { createSseParser, type SseEvent } from '@infergate/core';
import { classifyTransportError } from './classify-transport-error.js';
import { IdleTimeout } from './idle-timeout.js';
import { raceAbort } from './race-abort.js';
import { upstreamFailure } from './upstream-failure.js';

export interface SseEventReaderOptions {
  /** Largest line, and largest sum of one event's data lines, in bytes; past it the stream is refused (fault-matrix row 26). */
  maxEventBytes: number;
  /** Aborted by the port for every reason to stop (client gone, a limit, the consumer left). */
  signal: AbortSignalLike;
  /** Longest wait for the next event while the reader is waiting for one. */
  idleMs: number;
  /** Called when a wait outlasts `idleMs`; expected to abort `signal` with the reason to report. */
  onIdle: () => void;
}

export interface SseEventReader {
  /** The next event of the last read when there is one: no wait, no promise. */
  take(): SseEvent | undefined;
  /**
   * Reads on until a read completes at least one event and returns the first. `armIdle` false: this
   * wait is bounded by another limit (time to first event). Failures are UpstreamErrors with phase
   * `body` (the signal's reason when it was aborted).
   */
  read(armIdle: boolean): Promise<IteratorResult<SseEvent, void>>;
  /** Releases the byte source; the port's abort closes the socket. */
  release(): void;
}

const eventTooLarge = () =>
  upstreamFailure('too_large', 'body', undefined, 'A streamed event exceeded the size limit.');

/**
 * Server-sent events from an upstream body, parsed one network read at a time: the events a read
 * completes are handed out synchronously by `take()`, so a read of thirty events costs one wait, one
 * idle timer and one abort race instead of thirty. The idle limit runs from the moment the consumer
 * waits for an event until one is complete: comments and partial events do not reset it (fault
 * matrix row 13), and a consumer that is not asking (a slow client) never looks like a silent upstream.
 */
export function createSseEventReader(
  chunks: AsyncIterable<Uint8Array>,
  options: SseEventReaderOptions,
): SseEventReader {
  const source = chunks[Symbol.asyncIterator]();
  const parser = createSseParser({
    maxEventLength: options.maxEventBytes,
    tooLarge: eventTooLarge,
  });
  const idle = new IdleTimeout(options.idleMs, options.onIdle);
  let queue: SseEvent[] = [];
  let index = 0;
  let finished = false;

  const take = (): SseEvent | undefined => (index < queue.length ? queue[index++] : undefined);

  return {
    take,
    async read(armIdle) {
      const queued = take();
      if (queued !== undefined) return { done: false, value: queued };
      if (finished) return { done: true, value: undefined };
      if (armIdle) idle.arm();
      try {
        for (;;) {
          let result: IteratorResult<Uint8Array>;
          try {
            result = await raceAbort(source.next(), options.signal);
          } catch (error) {
            finished = true;
            throw options.signal.aborted
              ? options.signal.reason
              : classifyTransportError(error, 'body');
          }
          if (result.done === true) {
            finished = true;
            return { done: true, value: undefined };
          }
          try {
            queue = parser.push(result.value);
          } catch (error) {
            finished = true;
            throw error;
          }
          index = 0;
          const event = take();
          if (event !== undefined) return { done: false, value: event };
        }
      } finally {
        idle.disarm();
      }
    },
    release() {
      idle.disarm();
      if (finished) return;
      finished = true;
      source.return?.().catch(() => {});
    },
  };
}
