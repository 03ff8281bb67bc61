const brand = Symbol.for('infergate.upstream-error');

/** Where in the exchange with a model server the failure happened. */
export type UpstreamPhase = 'connect' | 'headers' | 'body';

/**
 * What went wrong, independent of the transport:
 * refused (connection refused or DNS), timeout (connect, first byte or idle), reset (socket reset or
 * early end), too_large (response over the size cap), protocol (unparseable body or framing),
 * unavailable (no healthy endpoint or over capacity), aborted (the client went away).
 */
export type UpstreamFailureKind =
  'refused' | 'timeout' | 'reset' | 'too_large' | 'protocol' | 'unavailable' | 'aborted';

export interface UpstreamErrorOptions {
  phase: UpstreamPhase;
  kind: UpstreamFailureKind;
  message: string;
  retryable?: boolean;
  retryAfterSeconds?: number;
  cause?: unknown;
  /** The configured name (`upstreams[].name`) of the upstream that failed last, for logs; never its URL. */
  upstream?: string;
  /** Attempts made before giving up (1 when nothing was retried), for logs. */
  attempts?: number;
}

/**
 * A failure reaching or reading a model server. Thrown by @infergate/upstream, turned into a
 * GatewayError (or a terminating stream event) by core at the boundary. The message must never hold
 * an upstream URL, host or key: it can reach a client.
 */
export class UpstreamError extends Error {
  readonly [brand] = true;
  readonly phase: UpstreamPhase;
  readonly kind: UpstreamFailureKind;
  readonly retryable: boolean;
  readonly retryAfterSeconds: number | undefined;
  readonly upstream: string | undefined;
  readonly attempts: number | undefined;

  constructor(options: UpstreamErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UpstreamError';
    this.phase = options.phase;
    this.kind = options.kind;
    this.retryable = options.retryable ?? false;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.upstream = options.upstream;
    this.attempts = options.attempts;
  }
}

export function isUpstreamError(value: unknown): value is UpstreamError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[brand] === true
  );
}
