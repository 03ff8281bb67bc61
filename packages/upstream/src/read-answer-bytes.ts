import type { AbortSignalLike } from '@infergate/core';
import { classifyTransportError } from './classify-transport-error.js';
import { IdleTimeout } from './idle-timeout.js';
import type { BodySink, TransportResponse } from './transport.js';

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
 * Reads a JSON answer whole, as the pieces it arrived in, within the size cap, the idle limit and the
 * abort signal, with one listener and one timer for the whole read: unlike a stream's reader, whose
 * pace the client sets, it needs no race per pull. The body is taken pushed when the transport offers
 * it (Node), else pulled. Failures: the signal's reason once aborted, else an UpstreamError with phase
 * `body`, or `tooLarge()` past the cap; the rest of the body is then discarded.
 */
export function readAnswerBytes(
  answer: Pick<TransportResponse, 'body' | 'pushBody'>,
  options: ReadAnswerOptions,
): Promise<Uint8Array[]> {
  const { signal } = options;
  if (signal.aborted) return Promise.reject(signal.reason as unknown);
  return new Promise<Uint8Array[]>((resolve, reject) =>
    new AnswerReader(options, resolve, reject).start(answer),
  );
}

/** One read of one answer; the sink a pushing transport feeds, and the loop that pulls from the others. */
class AnswerReader implements BodySink {
  private readonly pieces: Uint8Array[] = [];
  private total = 0;
  private settled = false;
  private stop: (() => void) | undefined;
  private readonly idle: IdleTimeout;
  private readonly onAbort = (): void => this.abandon(this.options.signal.reason);

  constructor(
    private readonly options: ReadAnswerOptions,
    private readonly resolve: (pieces: Uint8Array[]) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.idle = new IdleTimeout(options.idleMs, options.onIdle);
  }

  start(answer: Pick<TransportResponse, 'body' | 'pushBody'>): void {
    this.idle.arm();
    this.options.signal.addEventListener('abort', this.onAbort, { once: true });
    if (answer.pushBody !== undefined) {
      const stop = answer.pushBody(this);
      // A transport may deliver (and a piece may pass the cap) before handing back its stop function.
      if (this.settled) stop();
      else this.stop = stop;
      return;
    }
    const iterator = answer.body[Symbol.asyncIterator]();
    this.stop = () => void iterator.return?.().catch(() => undefined);
    this.pull(iterator).catch((error: unknown) => this.fail(error));
  }

  piece(bytes: Uint8Array): void {
    if (this.settled) return;
    this.total += bytes.byteLength;
    if (this.total > this.options.maxBytes) {
      this.abandon(this.options.tooLarge());
      return;
    }
    this.pieces.push(bytes);
    this.idle.arm();
  }

  end(): void {
    if (this.settled) return;
    this.settle();
    this.resolve(this.pieces);
  }

  fail(error: unknown): void {
    const { signal } = this.options;
    this.abandon(signal.aborted ? signal.reason : classifyTransportError(error, 'body'));
  }

  private async pull(iterator: AsyncIterator<Uint8Array>): Promise<void> {
    for (;;) {
      const next = await iterator.next();
      if (this.settled) return;
      if (next.done === true) {
        this.end();
        return;
      }
      this.piece(next.value);
    }
  }

  private abandon(reason: unknown): void {
    if (this.settled) return;
    this.settle();
    this.stop?.();
    this.reject(reason);
  }

  private settle(): void {
    this.settled = true;
    this.options.signal.removeEventListener('abort', this.onAbort);
    this.idle.disarm();
  }
}
