import type { LocalBackendOptions } from '../local-backend-options.js';

/** Waits between generated tokens as a real model would; resolves false when the request was aborted. */
export class Pacer {
  private readonly tokenDelayMs: number;
  private readonly firstTokenDelayMs: number;
  private started = false;

  constructor(
    options: LocalBackendOptions,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.tokenDelayMs =
      options.tokensPerSecond !== undefined && options.tokensPerSecond > 0
        ? 1000 / options.tokensPerSecond
        : 0;
    this.firstTokenDelayMs = Math.max(0, options.firstTokenDelayMs ?? 0);
  }

  get paced(): boolean {
    return this.tokenDelayMs > 0 || this.firstTokenDelayMs > 0;
  }

  /** Before each engine step: the first-token delay once, then one token interval per step. */
  async step(): Promise<boolean> {
    const delay = this.started ? this.tokenDelayMs : this.firstTokenDelayMs;
    this.started = true;
    return sleep(delay, this.signal);
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted === true) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
