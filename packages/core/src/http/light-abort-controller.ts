/**
 * What the gateway reads of an abort signal. A DOM `AbortSignal` is one (the edge app passes the
 * request's), and so is `LightAbortController`, which the Node side makes per request and per upstream
 * attempt. undici takes either: it asks only for `aborted`, `reason` and the two listener methods.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * An abort controller that is its own signal, for the Node hot path, where Node's EventTarget-based
 * AbortController costs far more per request. It keeps what callers rely on: listeners run once each,
 * in order, on the first abort only; one added twice runs once; one added after the abort, or removed
 * by an earlier listener, never runs; one that throws does not stop the others, and its error is thrown
 * again from a microtask.
 */
export class LightAbortController implements AbortSignalLike {
  aborted = false;
  reason: unknown = undefined;
  private readonly listeners: Array<() => void> = [];

  get signal(): AbortSignalLike {
    return this;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.aborted || this.listeners.includes(listener)) return;
    this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.listeners.indexOf(listener);
    if (index !== -1) this.listeners.splice(index, 1);
  }

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    // Taken one at a time from the live list, so that one removed by an earlier listener does not run.
    for (let listener = this.listeners.shift(); listener !== undefined; listener = this.listeners.shift()) {
      try {
        listener();
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
