import { InfergateError, type InfergateErrorOptions } from './infergate-error.js';
import {
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from './status-errors.js';

type ErrorClass = new (options: InfergateErrorOptions) => InfergateError;

function classForStatus(status: number): ErrorClass {
  if (status === 400) return BadRequestError;
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionDeniedError;
  if (status === 404) return NotFoundError;
  if (status === 422) return UnprocessableEntityError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return InternalServerError;
  return InfergateError;
}

// An error inside a stream comes after the 200, so there is no status to go by; the envelope's type
// names the same classes (docs/design.md: the native envelope's types follow the completion API's).
const statusForType: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  rate_limit_error: 429,
};

function stringOrNull(value: unknown): string | null {
  if (typeof value === 'string') return value;
  // vLLM writes a numeric `code` (the status) in its own envelope.
  if (typeof value === 'number') return String(value);
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface ErrorFields {
  message: string | undefined;
  type: string | null;
  code: string | null;
  param: string | null;
  id: string | null;
}

/** Reads the native `{"error": {message, type, param, code}}` and the compat `{"id", "message"}` envelopes. */
export function readErrorFields(body: unknown): ErrorFields {
  const inner = isRecord(body) && isRecord(body.error) ? body.error : body;
  if (!isRecord(inner))
    return { message: undefined, type: null, code: null, param: null, id: null };
  return {
    message: typeof inner.message === 'string' ? inner.message : undefined,
    type: stringOrNull(inner.type),
    code: stringOrNull(inner.code),
    param: stringOrNull(inner.param),
    id: isRecord(body) ? stringOrNull(body.id) : null,
  };
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text.length > 0 ? text : undefined;
  }
}

/** The typed error for a non-2xx answer. */
export function errorFromResponse(
  status: number,
  headers: Headers,
  bodyText: string,
): InfergateError {
  const body = parseBody(bodyText);
  const fields = readErrorFields(body);
  const ErrorType = classForStatus(status);
  const message =
    fields.message ??
    (typeof body === 'string'
      ? body.slice(0, 500)
      : `${status} status code (no error message in body)`);
  return new ErrorType({
    message,
    status,
    type: fields.type,
    code: fields.code,
    param: fields.param,
    // The compat envelope's id is the request id; the header is authoritative when both exist.
    requestId: headers.get('x-request-id') ?? fields.id,
    headers,
    body,
  });
}

/** The typed error for an error reported inside a stream after its 200 (chat error chunk, responses `error` / `response.failed`). */
export function errorFromStreamEvent(payload: unknown, requestId: string | null): InfergateError {
  const fields = readErrorFields(payload);
  const numericCode =
    fields.code !== null && /^\d{3}$/.test(fields.code) ? Number(fields.code) : undefined;
  const impliedStatus =
    numericCode ?? (fields.type === null ? undefined : statusForType[fields.type]) ?? 500;
  const ErrorType = classForStatus(impliedStatus);
  return new ErrorType({
    message: fields.message ?? 'The stream reported an error.',
    type: fields.type,
    code: fields.code,
    param: fields.param,
    requestId,
    body: payload,
  });
}
