import { BodyBudget, GatewayError, type BodyReservation } from '@infergate/core';

export interface BodyHeaders {
  contentLength: string | null | undefined;
  chunked: boolean;
}

/** A request body's hold on the in-flight budget and its idle timer, while it is read and handled. */
export interface BodyTicket {
  /**
   * Counts one chunk read: the idle timer starts over, and a chunked body's bytes join the budget.
   * False when the budget cannot take them (the app answers 503 overloaded).
   */
  take(bytes: number): boolean;
  /** The whole body has arrived: the idle timer stops; its bytes stay held until release. */
  received(): void;
  /** Gives the held bytes back and stops the idle timer; extra calls do nothing. */
  release(): void;
}

/**
 * Admits a request body before an app reads it, once the key is checked: throws 503 overloaded when the
 * budget cannot take its declared length; undefined when there is nothing to hold (no body, or a declared
 * length over the route's limit, the app's 413). `onIdle` runs when no byte of the body has arrived for
 * `timeouts.body_idle_ms`, its bytes already given back: the app answers 408.
 */
export type BodyAdmission = (
  headers: BodyHeaders,
  routeLimit: number,
  onIdle: () => void,
) => BodyTicket | undefined;

class HeldBody implements BodyTicket {
  private readonly idle: ReturnType<typeof setTimeout>;

  constructor(
    private readonly reservation: BodyReservation,
    /** A chunked body: its reservation grows with each chunk. */
    private readonly counted: boolean,
    private readonly routeLimit: number,
    idleMs: number,
    onIdle: () => void,
  ) {
    this.idle = setTimeout(() => {
      this.reservation.release();
      onIdle();
    }, idleMs);
    this.idle.unref();
  }

  take(bytes: number): boolean {
    this.idle.refresh();
    // Past the route's limit the app answers 413 and drops the rest: those bytes are not held.
    return (
      !this.counted || this.reservation.bytes >= this.routeLimit || this.reservation.grow(bytes)
    );
  }

  received(): void {
    clearTimeout(this.idle);
  }

  release(): void {
    clearTimeout(this.idle);
    this.reservation.release();
  }
}

/**
 * The in-flight body budget (limits.max_inflight_body_bytes, 0: none) and body idle limit
 * (timeouts.body_idle_ms) of one server. Bodies are admitted only after their key is checked. A
 * declared Content-Length is reserved whole, so an admitted body always completes and a refused one is
 * a 503 before a byte is read; a chunked body grows as it arrives. A body that stops arriving gives its
 * bytes back after the idle limit.
 */
export function createBodyAdmission(options: {
  maxInflightBodyBytes: number;
  bodyIdleMs: number;
}): BodyAdmission {
  const budget = new BodyBudget(options.maxInflightBodyBytes);
  return ({ contentLength, chunked }, routeLimit, onIdle) => {
    const declared =
      contentLength !== undefined && contentLength !== null && /^\d+$/.test(contentLength.trim());
    const bytes = declared ? Number(contentLength) : 0;
    // Nothing to wait for (no body, or an empty one), or a 413 for the app to answer.
    if ((declared && bytes === 0) || (!declared && !chunked) || bytes > routeLimit)
      return undefined;
    const reservation = budget.reserve(bytes);
    if (reservation === undefined) throw GatewayError.overloaded();
    return new HeldBody(reservation, !declared, routeLimit, options.bodyIdleMs, onIdle);
  };
}
