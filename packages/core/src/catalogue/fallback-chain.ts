import { isUpstreamError } from '../errors/upstream-error.js';
import { toGatewayError } from '../errors/to-gateway-error.js';
import type { FallbackReason, VirtualRoute } from './catalogue-types.js';

/** A model a request left for the next one of its virtual model's list, and why. */
export interface FallbackStep {
  model: string;
  reason: FallbackReason;
}

/** The fallback reason of a failed attempt, or undefined for a failure no virtual model moves on from. */
export function fallbackReasonOf(error: unknown): FallbackReason | undefined {
  if (isUpstreamError(error)) {
    if (error.kind === 'refused' || error.kind === 'reset') return 'connection';
    if (error.kind === 'timeout') return 'timeout';
    if (error.kind === 'unavailable') return 'unavailable';
    return undefined;
  }
  const gatewayError = toGatewayError(error);
  switch (gatewayError.code) {
    case 'rate_limit_exceeded':
      return 'rate_limited';
    case 'model_not_configured':
      return 'model_not_configured';
    case 'upstream_timeout':
      return 'timeout';
    case 'upstream_error': {
      const cause = gatewayError.cause as { upstreamStatus?: unknown } | undefined;
      const status = cause?.upstreamStatus;
      if (typeof status !== 'number') return undefined;
      return status >= 502 && status <= 504 ? 'unavailable' : 'server_error';
    }
    default:
      return undefined;
  }
}

/**
 * The models one request for a virtual model with a list tries, in order: the first drawn by the
 * weights when there are some, then the rest of the list, leaving out models the key may not use.
 * Each attempt runs the whole request for `model`; `skip` moves to the next.
 */
export class FallbackChain {
  /** The models left so far, and why: for the log line, the headers and the metrics. */
  readonly left: FallbackStep[] = [];
  private index = 0;

  private constructor(
    /** The virtual id the client asked for. */
    readonly requested: string,
    private readonly on: VirtualRoute['on'],
    private readonly order: readonly string[],
  ) {}

  /**
   * @param mayUse whether the request's key may use a catalogue id (a key that lists the virtual id may
   *   use all of its models); when it may use none, the first model is kept and refused as usual.
   * @param draw a uniform number in [0, 1), read only when the route has weights.
   */
  static start(
    requested: string,
    route: VirtualRoute,
    mayUse: (model: string) => boolean,
    draw: () => number,
  ): FallbackChain {
    const usable = route.models.filter(mayUse);
    const first =
      route.weights === undefined ? undefined : drawFirst(route.weights, mayUse, draw());
    const order = first === undefined ? usable : [first, ...usable.filter((id) => id !== first)];
    return new FallbackChain(
      requested,
      route.on,
      order.length > 0 ? order : route.models.slice(0, 1),
    );
  }

  /** The catalogue id the current attempt calls. */
  get model(): string {
    return this.order[this.index] as string;
  }

  /** Whether a failure for `reason` may move on: the route falls back on it and a model is left. */
  canSkip(reason: FallbackReason): boolean {
    return this.on.has(reason) && this.index + 1 < this.order.length;
  }

  /** Moves to the next model when `canSkip(reason)`; false (and nothing done) otherwise. */
  skip(reason: FallbackReason): boolean {
    if (!this.canSkip(reason)) return false;
    this.left.push({ model: this.model, reason });
    this.index += 1;
    return true;
  }
}

function drawFirst(
  weights: NonNullable<VirtualRoute['weights']>,
  mayUse: (model: string) => boolean,
  draw: number,
): string | undefined {
  const usable = weights.filter(({ model, weight }) => weight > 0 && mayUse(model));
  const total = usable.reduce((sum, { weight }) => sum + weight, 0);
  let point = draw * total;
  for (const { model, weight } of usable) {
    if (point < weight) return model;
    point -= weight;
  }
  return usable[usable.length - 1]?.model;
}
