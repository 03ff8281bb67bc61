import { classifyTransportError } from './classify-transport-error.js';
import { IdleTimeout } from './idle-timeout.js';
import { raceAbort } from './race-abort.js';

export interface LimitPullsOptions {
  /** Aborted by the port for every reason to stop (client gone, a limit, the consumer left). */
  signal: AbortSignal;
  /** Longest wait for one item while the reader is pulling. */
  idleMs: number;
  /** Called when a pull outlasts `idleMs`; expected to abort `signal` with the reason to report. */
  onIdle: () => void;
}

/**
 * Re-yields `source`, bounding each pull by the idle limit and the abort signal, and turning every
 * failure into an UpstreamError with phase `body` (the signal's reason when it was aborted).
 */
export async function* limitPulls<T>(source: AsyncIterable<T>, options: LimitPullsOptions): AsyncGenerator<T, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  const idle = new IdleTimeout(options.idleMs, options.onIdle);
  let finished = false;
  try {
    for (;;) {
      idle.arm();
      let result: IteratorResult<T>;
      try {
        result = await raceAbort(iterator.next(), options.signal);
      } catch (error) {
        finished = true;
        throw options.signal.aborted ? options.signal.reason : classifyTransportError(error, 'body');
      } finally {
        idle.disarm();
      }
      if (result.done === true) {
        finished = true;
        return;
      }
      yield result.value;
    }
  } finally {
    idle.disarm();
    // Leaving early (the consumer stopped): release the source; the port's abort closes the socket.
    if (!finished) iterator.return?.().catch(() => {});
  }
}
