/** Bytes of one request body held against the budget; grows as a body of unknown length arrives. */
export interface BodyReservation {
  /** Bytes held now. */
  readonly bytes: number;
  /** Holds `extra` more bytes; false (and nothing held) when the budget cannot take them. */
  grow(extra: number): boolean;
  /** Gives every held byte back; extra calls do nothing. */
  release(): void;
}

/**
 * The in-flight request-body budget (config `limits.max_inflight_body_bytes`, 0 = none): the total of
 * body bytes being read, or read and not yet handled, across all requests. A body with a
 * Content-Length is reserved whole before a byte is read, so an admitted body always completes and a
 * refused one costs nothing (503 with Retry-After, the client retries); a chunked body grows its
 * reservation as it arrives and is refused with 503 the moment it would pass the budget.
 */
export class BodyBudget {
  private held = 0;

  /** @param limit total bytes; 0 or less means no budget. */
  constructor(readonly limit: number) {}

  /** Bytes held by all reservations. */
  get inUse(): number {
    return this.held;
  }

  /** A reservation of `bytes` (0 for a chunked body), or undefined when the budget cannot take them. */
  reserve(bytes: number): BodyReservation | undefined {
    if (!this.fits(bytes)) return undefined;
    this.held += bytes;
    return new HeldBytes(this, bytes);
  }

  /** Takes `bytes` more when they fit; false (nothing taken) otherwise. */
  take(bytes: number): boolean {
    if (!this.fits(bytes)) return false;
    this.held += bytes;
    return true;
  }

  /** Gives back `bytes` taken earlier. */
  give(bytes: number): void {
    this.held -= bytes;
  }

  private fits(bytes: number): boolean {
    return this.limit <= 0 || this.held + bytes <= this.limit;
  }
}

// A class, not an object literal with a `bytes` getter: V8 makes a hidden class per such literal,
// which keeps the getter's closure alive past scavenges (see DispatchedStream in dispatch.ts).
class HeldBytes implements BodyReservation {
  private released = false;

  constructor(
    private readonly budget: BodyBudget,
    private own: number,
  ) {}

  get bytes(): number {
    return this.own;
  }

  grow(extra: number): boolean {
    if (this.released || !this.budget.take(extra)) return false;
    this.own += extra;
    return true;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget.give(this.own);
    this.own = 0;
  }
}
