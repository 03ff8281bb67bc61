const brand = Symbol.for('infergate.error');

/** The `type` field of the native error envelope, as the widely used completion API names them. */
export type GatewayErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'api_error'
  | 'server_error';

export interface GatewayErrorOptions {
  status: number;
  type: GatewayErrorType;
  code: string;
  message: string;
  param?: string | null;
  /** Response headers the error needs (Allow, Retry-After, WWW-Authenticate). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** Why an upstream answer failed, kept as a GatewayError's cause for the operator's log; never a body value. */
export interface UpstreamAnswerCause {
  /** The upstream's own status, when it answered with a non-2xx one. */
  upstreamStatus?: number;
  /** The JSON path of a 2xx body that failed validation and why. */
  detail?: string;
}

/**
 * The one error type of the gateway. Every failure a client sees is one of these, built by a factory
 * named after docs/design.md's decision rows, so that call sites read like the decision table.
 */
export class GatewayError extends Error {
  readonly [brand] = true;
  readonly status: number;
  readonly type: GatewayErrorType;
  readonly code: string;
  readonly param: string | null;
  readonly headers: Record<string, string>;

  constructor(options: GatewayErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.status = options.status;
    this.type = options.type;
    this.code = options.code;
    this.param = options.param ?? null;
    this.headers = options.headers ?? {};
  }

  static invalidParameter(param: string, message: string): GatewayError {
    return new GatewayError({
      status: 400,
      type: 'invalid_request_error',
      code: 'invalid_parameter',
      param,
      message,
    });
  }

  static missingParameter(param: string): GatewayError {
    return new GatewayError({
      status: 400,
      type: 'invalid_request_error',
      code: 'missing_parameter',
      param,
      message: `Missing required parameter: '${param}'.`,
    });
  }

  static unknownParameter(param: string): GatewayError {
    return new GatewayError({
      status: 400,
      type: 'invalid_request_error',
      code: 'unknown_parameter',
      param,
      message: `Unrecognized request argument supplied: '${param}'.`,
    });
  }

  static invalidJson(message: string): GatewayError {
    return new GatewayError({
      status: 400,
      type: 'invalid_request_error',
      code: 'invalid_json',
      message: `The request body is not valid JSON: ${message}`,
    });
  }

  /** A body that is not UTF-8: JSON text exchanged between systems must be (RFC 8259 8.1), and replacing the bad bytes would change what the client sent. */
  static invalidUtf8(): GatewayError {
    return GatewayError.invalidJson('it is not valid UTF-8 (JSON must be sent as UTF-8).');
  }

  static unauthorized(
    message = 'Missing or invalid API key. Send it as "Authorization: Bearer <key>".',
  ): GatewayError {
    return new GatewayError({
      status: 401,
      type: 'authentication_error',
      code: 'invalid_api_key',
      message,
      headers: { 'www-authenticate': 'Bearer' },
    });
  }

  /** A request with more than one credential (two Authorization headers, or one listing two). */
  static multipleAuthorization(): GatewayError {
    return new GatewayError({
      status: 400,
      type: 'invalid_request_error',
      code: 'multiple_authorization',
      message:
        'The request has more than one Authorization credential; send one "Authorization: Bearer <key>" header.',
    });
  }

  static modelNotAllowed(model: string): GatewayError {
    return new GatewayError({
      status: 403,
      type: 'permission_error',
      code: 'model_not_allowed',
      param: 'model',
      message: `This API key may not use the model '${model}'.`,
    });
  }

  static operatorKeyRequired(path: string): GatewayError {
    return new GatewayError({
      status: 403,
      type: 'permission_error',
      code: 'operator_key_required',
      message: `${path} is for operators: use a key the configuration marks \`operator: true\`.`,
    });
  }

  static modelNotFound(model: string): GatewayError {
    return new GatewayError({
      status: 404,
      type: 'invalid_request_error',
      code: 'model_not_found',
      param: 'model',
      message: `The model '${model}' does not exist.`,
    });
  }

  static modelNotSupported(
    model: string,
    endpoint: string,
    servedBy: readonly string[],
  ): GatewayError {
    const where =
      servedBy.length > 0
        ? `it is served by ${servedBy.join(', ')}`
        : 'it is served by no endpoint';
    return new GatewayError({
      status: 400,
      type: 'invalid_request_error',
      code: 'model_not_supported',
      param: 'model',
      message: `The model '${model}' is not supported on ${endpoint}; ${where}.`,
    });
  }

  static unsupportedEndpoint(method: string, path: string): GatewayError {
    return new GatewayError({
      status: 404,
      type: 'invalid_request_error',
      code: 'unsupported_endpoint',
      message: `${method} ${path} is not supported: this gateway stores no data, so stored items cannot be read back or changed.`,
    });
  }

  /** An endpoint of the completion API this gateway does not offer at all (the spec lists it as unsupported). */
  static endpointNotOffered(method: string, path: string): GatewayError {
    return new GatewayError({
      status: 404,
      type: 'invalid_request_error',
      code: 'unsupported_endpoint',
      message: `${method} ${path} is not offered by this gateway.`,
    });
  }

  static useMasterEndpoint(
    method: string,
    path: string,
    masterUrl: string | undefined,
  ): GatewayError {
    const where = masterUrl
      ? `at the master endpoint ${masterUrl} with the master API key`
      : 'at the master endpoint with the master API key (no master_url is configured)';
    return new GatewayError({
      status: 404,
      type: 'invalid_request_error',
      code: 'use_master_endpoint',
      message: `${method} ${path} is not served by this gateway; call it ${where}.`,
    });
  }

  static routeNotFound(method: string, path: string): GatewayError {
    return new GatewayError({
      status: 404,
      type: 'not_found_error',
      code: 'not_found',
      message: `No route for ${method} ${path}.`,
    });
  }

  static methodNotAllowed(method: string, path: string, allow: readonly string[]): GatewayError {
    return new GatewayError({
      status: 405,
      type: 'invalid_request_error',
      code: 'method_not_allowed',
      message: `${method} is not allowed on ${path}; allowed: ${allow.join(', ')}.`,
      headers: { allow: allow.join(', ') },
    });
  }

  static requestTimeout(): GatewayError {
    return new GatewayError({
      status: 408,
      type: 'invalid_request_error',
      code: 'request_timeout',
      message: 'The request was not received in time.',
    });
  }

  static payloadTooLarge(limitBytes: number): GatewayError {
    return new GatewayError({
      status: 413,
      type: 'invalid_request_error',
      code: 'request_too_large',
      message: `The request body exceeds the limit of ${limitBytes} bytes for this endpoint.`,
    });
  }

  /** A chat or responses body whose text (all but its image data URLs) is over `limits.body_text_bytes`. */
  static textTooLarge(limitBytes: number): GatewayError {
    return new GatewayError({
      status: 413,
      type: 'invalid_request_error',
      code: 'request_too_large',
      message: `The request body's text (all of it but its image data URLs) exceeds the limit of ${limitBytes} bytes for this endpoint.`,
    });
  }

  /** A body of a type the route does not read; `multipart` for a route that also takes a form (image edits). */
  static unsupportedMediaType(contentType: string | undefined, multipart = false): GatewayError {
    const accepted = multipart ? 'application/json or multipart/form-data' : 'application/json';
    return new GatewayError({
      status: 415,
      type: 'invalid_request_error',
      code: 'unsupported_media_type',
      message: `Content-Type must be ${accepted}${contentType ? `, got '${contentType}'` : ''}.`,
    });
  }

  /** A request body sent compressed: RFC 7694 names the codings the gateway takes in Accept-Encoding. */
  static unsupportedContentEncoding(encoding: string): GatewayError {
    return new GatewayError({
      status: 415,
      type: 'invalid_request_error',
      code: 'unsupported_content_encoding',
      message: `Content-Encoding '${encoding}' is not supported: send the request body uncompressed.`,
      headers: { 'accept-encoding': 'identity' },
    });
  }

  /** A request line over the inbound header limit (which counts the request line too): its URL is what is too long. */
  static uriTooLong(): GatewayError {
    return new GatewayError({
      status: 414,
      type: 'invalid_request_error',
      code: 'uri_too_long',
      message: 'The request URL is too long.',
    });
  }

  /** An HTTP/1.1 request without a Host header (RFC 9112 3.2: a server must answer it with 400). */
  static missingHost(): GatewayError {
    return GatewayError.badRequest(
      'The request has no Host header, which HTTP/1.1 requires.',
      null,
      'malformed_request',
    );
  }

  /** An HTTP Expect header the gateway cannot meet (anything but 100-continue): 417, RFC 9110 10.1.1. */
  static expectationFailed(): GatewayError {
    return new GatewayError({
      status: 417,
      type: 'invalid_request_error',
      code: 'expectation_failed',
      message: 'The only Expect value this gateway meets is 100-continue.',
    });
  }

  static headersTooLarge(): GatewayError {
    return new GatewayError({
      status: 431,
      type: 'invalid_request_error',
      code: 'headers_too_large',
      message: 'The request headers are too large.',
    });
  }

  static badRequest(
    message: string,
    param: string | null = null,
    code = 'invalid_request',
  ): GatewayError {
    return new GatewayError({ status: 400, type: 'invalid_request_error', code, param, message });
  }

  static rateLimited(message: string, retryAfterSeconds: number | undefined): GatewayError {
    return new GatewayError({
      status: 429,
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      message,
      headers: retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
    });
  }

  /**
   * A key's budget is spent for its period: 429 until the period ends (Retry-After says when), with
   * `x-should-retry: false`, which the openai client obeys, so that they do not retry at once.
   */
  static budgetExceeded(message: string, retryAfterSeconds: number): GatewayError {
    return new GatewayError({
      status: 429,
      type: 'rate_limit_error',
      code: 'budget_exceeded',
      message,
      headers: { 'retry-after': String(retryAfterSeconds), 'x-should-retry': 'false' },
    });
  }

  /** An upstream 4xx passed through with the upstream's own (sanitized) message. */
  static upstreamRejected(status: number, message: string, param: string | null): GatewayError {
    return new GatewayError({
      status,
      type: 'invalid_request_error',
      code: 'upstream_rejected',
      param,
      message,
    });
  }

  /** `cause` is for the operator's log only (failure-facts.ts): `{ upstreamStatus }` or `{ detail }`. */
  static upstreamFailed(
    message = 'The model server failed to answer.',
    cause?: UpstreamAnswerCause,
  ): GatewayError {
    return new GatewayError({
      status: 502,
      type: 'api_error',
      code: 'upstream_error',
      message,
      cause,
    });
  }

  /**
   * A 2xx upstream body the gateway cannot use. `detail` names the JSON path that failed and why
   * (`data[0].embedding: expected an array of numbers`), never a value from the body: it goes to the
   * operator's log (failure-facts.ts), the client sees only `message`.
   */
  static upstreamBodyInvalid(message: string, detail: string): GatewayError {
    return GatewayError.upstreamFailed(message, { detail });
  }

  static upstreamTimeout(
    message = 'The model server did not answer in time.',
    cause?: UpstreamAnswerCause,
  ): GatewayError {
    return new GatewayError({
      status: 504,
      type: 'api_error',
      code: 'upstream_timeout',
      message,
      cause,
    });
  }

  /** /tokenize on a model whose server has no tokenizer route (or is configured with `tokenize: false`). */
  static tokenizeNotOffered(model: string): GatewayError {
    return new GatewayError({
      status: 501,
      type: 'server_error',
      code: 'tokenize_not_supported',
      param: 'model',
      message: `The model '${model}' is served by a model server that does not offer tokenization, so /tokenize is not available for it.`,
    });
  }

  static overloaded(retryAfterSeconds = 1): GatewayError {
    return new GatewayError({
      status: 503,
      type: 'server_error',
      code: 'overloaded',
      message: 'The gateway is at capacity; retry shortly.',
      headers: { 'retry-after': String(retryAfterSeconds) },
    });
  }

  static noHealthyUpstream(model: string, retryAfterSeconds = 1): GatewayError {
    return new GatewayError({
      status: 503,
      type: 'server_error',
      code: 'no_healthy_upstream',
      message: `No healthy model server is available for '${model}'.`,
      headers: { 'retry-after': String(retryAfterSeconds) },
    });
  }

  static modelNotConfigured(model: string): GatewayError {
    return new GatewayError({
      status: 503,
      type: 'server_error',
      code: 'model_not_configured',
      param: 'model',
      message: `The model '${model}' is in the catalogue but no upstream is configured to serve it.`,
    });
  }

  static shuttingDown(): GatewayError {
    return new GatewayError({
      status: 503,
      type: 'server_error',
      code: 'shutting_down',
      message: 'The gateway is shutting down.',
      headers: { 'retry-after': '1', connection: 'close' },
    });
  }

  static internal(cause?: unknown): GatewayError {
    return new GatewayError({
      status: 500,
      type: 'server_error',
      code: 'internal_error',
      message: 'The gateway failed unexpectedly.',
      cause,
    });
  }
}

/** True for a GatewayError from any installed copy of core (the brand is a global symbol). */
export function isGatewayError(value: unknown): value is GatewayError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[brand] === true
  );
}
