/**
 * An async iterable of a stream's events that can be read once. Subclasses observe every event as it
 * passes, so a summary (`collect()`) covers the events the caller iterated itself and those it did not.
 */
export class EventStream<Event> implements AsyncIterable<Event> {
  private iterator: AsyncGenerator<Event, void, undefined> | undefined;
  // Kept so that collect() after a loop that threw reports the same error rather than a partial result.
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly source: AsyncGenerator<Event, void, undefined>,
    private readonly abortController: AbortController,
    /** The gateway's `x-request-id` for this stream. */
    readonly requestId: string | null,
  ) {}

  [Symbol.asyncIterator](): AsyncGenerator<Event, void, undefined> {
    if (this.iterator !== undefined)
      throw new TypeError('This stream is already being read; iterate it once, or call collect().');
    this.iterator = this.observed();
    return this.iterator;
  }

  /** Stops the stream: iteration throws APIUserAbortError and the connection closes. */
  abort(): void {
    this.abortController.abort();
  }

  protected observe(_event: Event): void {}

  /** Reads whatever is left of the stream, starting iteration if nobody has. */
  protected async drain(): Promise<void> {
    const iterator = this.iterator ?? this[Symbol.asyncIterator]();
    for (let step = await iterator.next(); step.done !== true; step = await iterator.next());
    if (this.failure !== undefined) throw this.failure.error;
  }

  private async *observed(): AsyncGenerator<Event, void, undefined> {
    try {
      for await (const event of this.source) {
        this.observe(event);
        yield event;
      }
    } catch (error) {
      this.failure = { error };
      throw error;
    }
  }
}
