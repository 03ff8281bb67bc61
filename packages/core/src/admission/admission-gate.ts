/**
 * The gateway-wide cap on concurrent requests (config `limits.max_concurrent_requests`, 0 = none).
 * A slot is taken when a request is admitted and given back once when it is over; a stream keeps its
 * slot until it closes, because an open stream is what costs memory and an upstream connection.
 * Plain counting with no I/O and no object per request: the caller that acquired releases, once (the
 * gateway's request finaliser, which runs once per request).
 */
export class AdmissionGate {
  private active = 0;

  /** @param limit concurrent requests admitted; 0 or less admits every request. */
  constructor(readonly limit: number) {}

  /** Requests currently holding a slot. */
  get inUse(): number {
    return this.active;
  }

  /** Every slot is taken: a request arriving now would be refused. */
  get full(): boolean {
    return this.limit > 0 && this.active >= this.limit;
  }

  /** Takes a slot: false when the gate is full (nothing taken). */
  tryAcquire(): boolean {
    if (this.full) return false;
    this.active += 1;
    return true;
  }

  /** Gives back a slot taken by tryAcquire. */
  release(): void {
    if (this.active > 0) this.active -= 1;
  }
}
