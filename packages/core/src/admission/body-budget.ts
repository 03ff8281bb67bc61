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
    let own = bytes;
    let released = false;
    return {
      get bytes() {
        return own;
      },
      grow: (extra) => {
        if (released || !this.fits(extra)) return false;
        this.held += extra;
        own += extra;
        return true;
      },
      release: () => {
        if (released) return;
        released = true;
        this.held -= own;
        own = 0;
      },
    };
  }

  private fits(bytes: number): boolean {
    return this.limit <= 0 || this.held + bytes <= this.limit;
  }
}
