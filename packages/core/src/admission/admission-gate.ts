/**
 * The gateway-wide cap on concurrent requests (config `limits.max_concurrent_requests`, 0 = none).
 * A slot is taken when a request is admitted and given back once when it is over; a stream keeps its
 * slot until it closes, because an open stream is what costs memory and an upstream connection.
 * Plain counting with no I/O, so both apps share it through core's dispatcher.
 */
export class AdmissionGate {
  private active = 0;

  /** @param limit concurrent requests admitted; 0 or less admits every request. */
  constructor(readonly limit: number) {}

  /** Requests currently holding a slot. */
  get inUse(): number {
    return this.active;
  }

  /** A release function when a slot is free (call it once, extra calls do nothing), undefined when full. */
  tryAcquire(): (() => void) | undefined {
    if (this.limit > 0 && this.active >= this.limit) return undefined;
    this.active += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active -= 1;
    };
  }
}
