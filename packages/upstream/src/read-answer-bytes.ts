import type { AbortSignalLike } from '@infergate/core';
import { classifyTransportError } from './classify-transport-error.js';
import { IdleTimeout } from './idle-timeout.js';

export interface ReadAnswerOptions {
  /** Aborted by the port for every reason to stop (client gone, a limit); its reason is the failure. */
  signal: AbortSignalLike;
  /** Longest wait for the next piece of the body. */
  idleMs: number;
  /** Called when a wait outlasts `idleMs`; expected to abort `signal` with the reason to report. */
  onIdle: () => void;
  maxBytes: number;
  /** The failure once the body passes `maxBytes`; reading stops there. */
  tooLarge: () => Error;
}

/**
 * Reads a JSON answer whole, as the pieces it arrived in (a reader that splices it on needs no joined
 * copy), within the size cap, the idle limit and the abort signal, with one abort
 * listener and one timer for the whole read: the port reads a JSON answer to its end at once, so it
 * needs no race per pull (a promise, a listener and a timer for every piece), which a stream's reader
 * has because the client sets its pace (sse-event-reader.ts). Failures: the signal's reason once it
 * is aborted, else an UpstreamError with phase `body`; `tooLarge()` past the cap. On failure the rest
 * of the body is left unread (the port's abort closes the connection).
 */
export function readAnswerBytes(source: AsyncIterable<Uint8Array>, options: ReadAnswerOptions): Promise<Uint8Array[]> {
  const { signal } = options;
  if (signal.aborted) return Promise.reject(signal.reason as unknown);
  return new Promise<Uint8Array[]>((resolve, reject) => {
    const iterator = source[Symbol.asyncIterator]();
    const idle = new IdleTimeout(options.idleMs, options.onIdle);
    idle.arm();
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      idle.disarm();
      iterator.return?.().catch(() => undefined);
      reject(error);
    };
    const onAbort = (): void => fail(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    const pieces: Uint8Array[] = [];
    let total = 0;
    const pump = async (): Promise<void> => {
      for (;;) {
        const next = await iterator.next();
        if (settled) return;
        if (next.done === true) break;
        total += next.value.byteLength;
        if (total > options.maxBytes) {
          fail(options.tooLarge());
          return;
        }
        pieces.push(next.value);
        idle.arm();
      }
      settled = true;
      signal.removeEventListener('abort', onAbort);
      idle.disarm();
      resolve(pieces);
    };
    pump().catch((error: unknown) => fail(signal.aborted ? signal.reason : classifyTransportError(error, 'body')));
  });
}
