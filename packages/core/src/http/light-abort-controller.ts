import type { AbortSignalLike } from '../ports/ports.js';

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
    this.reason =
      reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    // Taken one at a time from the live list, so that one removed by an earlier listener does not run.
    for (
      let listener = this.listeners.shift();
      listener !== undefined;
      listener = this.listeners.shift()
    ) {
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
