import type { TakeableIterator } from '../sse/takeable-iterator.js';
import { streamEndedEarly, streamFailureFrom } from './chat-stream-events.js';
import type { StreamFailure } from './chat-stream-events.js';

// Shared, never mutated by a consumer: no result object per end.
const over: IteratorResult<never, undefined> = Object.freeze({ done: true, value: undefined });
const ignore = (): undefined => undefined;

/**
 * A stream transform that turns each upstream event into zero or more client events synchronously, so
 * that the events of one upstream read pass through by `take()` without a promise each; `next()` waits
 * for the source only when nothing is ready. A subclass writes events to `out` in `step()`, and
 * terminal events in `fail()` when the source throws, ends early or `step()` throws. Once `step()`
 * reports the end, or on `return()`, the source is returned at once, which aborts the upstream call.
 */
export abstract class SyncEventTransform<In, Out> implements TakeableIterator<Out> {
  /** Events made and not yet handed out, from `index` on. */
  protected readonly out: Out[] = [];
  private index = 0;
  /** The source is done with: it ended, failed, or the transform saw the stream's end. */
  private inputOver = false;
  /** The consumer called return(): nothing more is handed out. */
  private closed = false;

  constructor(private readonly source: TakeableIterator<In> | AsyncIterator<In>) {}

  /** Writes the events for one upstream event to `out`; true when it ends the stream (no more input wanted). */
  protected abstract step(event: In): boolean;

  /** Writes the events that end a failed stream to `out`. */
  protected abstract fail(failure: StreamFailure): void;

  take(): Out | undefined {
    if (this.closed) return undefined;
    for (;;) {
      const { out } = this;
      if (this.index < out.length) {
        const event = out[this.index] as Out;
        this.index += 1;
        if (this.index === out.length) {
          out.length = 0;
          this.index = 0;
        }
        return event;
      }
      if (this.inputOver) return undefined;
      const input = (this.source as TakeableIterator<In>).take?.();
      if (input === undefined) return undefined;
      this.feed(input);
    }
  }

  async next(): Promise<IteratorResult<Out, undefined>> {
    for (;;) {
      const ready = this.take();
      if (ready !== undefined) return { done: false, value: ready };
      if (this.inputOver || this.closed) return over;
      let result: IteratorResult<In>;
      try {
        result = await this.source.next();
      } catch (error) {
        if (this.closed) return over;
        this.inputOver = true;
        this.fail(streamFailureFrom(error));
        continue;
      }
      if (this.closed) return over;
      if (result.done === true) {
        this.inputOver = true;
        this.fail(streamEndedEarly);
        continue;
      }
      this.feed(result.value);
    }
  }

  async return(): Promise<IteratorResult<Out, undefined>> {
    if (!this.closed) {
      this.closed = true;
      this.out.length = 0;
      this.index = 0;
      if (!this.inputOver) {
        this.inputOver = true;
        this.returnSource();
      }
    }
    return over;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private feed(input: In): void {
    let ended: boolean;
    try {
      ended = this.step(input);
    } catch (error) {
      this.fail(streamFailureFrom(error));
      ended = true;
    }
    if (ended) {
      this.inputOver = true;
      this.returnSource();
    }
  }

  private returnSource(): void {
    // Not awaited: the consumer has what it needs, and the abort it causes needs no answer.
    this.source.return?.()?.catch(ignore);
  }
}
