const brand = Symbol.for('infergate.sdk.error');

export interface InfergateErrorOptions {
  message: string;
  /** The HTTP status; undefined for network failures, timeouts, aborts and errors inside a stream. */
  status?: number;
  type?: string | null;
  code?: string | null;
  param?: string | null;
  requestId?: string | null;
  headers?: Headers;
  /** The parsed error body (or stream event) as the gateway sent it. */
  body?: unknown;
  cause?: unknown;
}

/** Every error the client throws. Subclasses name the status; `isInfergateError` recognizes any copy. */
export class InfergateError extends Error {
  readonly [brand] = true;
  // A literal, not new.target.name: minifiers rename classes. Subclasses override it.
  override readonly name: string = 'InfergateError';
  readonly status: number | undefined;
  /** The native envelope's `type` (e.g. invalid_request_error); null for the compat envelope. */
  readonly type: string | null;
  readonly code: string | null;
  /** The request field at fault, as a path like `messages[2].content`. */
  readonly param: string | null;
  /** The gateway's `x-request-id`; quote it when reporting a problem. */
  readonly requestId: string | null;
  readonly headers: Headers | undefined;
  readonly body: unknown;

  constructor(options: InfergateErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.type = options.type ?? null;
    this.code = options.code ?? null;
    this.param = options.param ?? null;
    this.requestId = options.requestId ?? null;
    this.headers = options.headers;
    this.body = options.body;
  }
}

/**
 * True for an InfergateError from any installed copy of the SDK: `instanceof` fails across two copies
 * (a bundled one and a hoisted one), a global symbol does not.
 */
export function isInfergateError(value: unknown): value is InfergateError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[brand] === true
  );
}
