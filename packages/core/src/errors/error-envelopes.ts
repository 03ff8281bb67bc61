import type { GatewayError } from './gateway-error.js';

/**
 * Which error body a route answers with: the completion API's (native), the embed/rerank API's
 * (compat) or the Messages API's (anthropic).
 */
export type ErrorEnvelope = 'native' | 'compat' | 'anthropic';

/** The error envelope of a path: compat under /compat/, anthropic on the Messages API's routes. */
export function envelopeForPath(path: string): ErrorEnvelope {
  if (path.startsWith('/compat/')) return 'compat';
  return path === '/v1/messages' || path.startsWith('/v1/messages/') ? 'anthropic' : 'native';
}

/** `{"error": {"message", "type", "param", "code"}}`, as the widely used completion API answers. */
export function nativeErrorBody(error: GatewayError): string {
  return JSON.stringify({
    error: { message: error.message, type: error.type, param: error.param, code: error.code },
  });
}

/** `{"id", "message"}`, as the embed/rerank API the compat endpoints follow answers. */
export function compatErrorBody(error: GatewayError, requestId: string): string {
  return JSON.stringify({ id: requestId, message: error.message });
}

/** The Messages API's error `type` of each status its SDK maps to an error class. */
function anthropicErrorType(status: number): string {
  switch (status) {
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 504:
      return 'timeout_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/**
 * The status an error is answered with: the gateway at capacity is 529 in the Messages API's envelope,
 * the status its clients (Claude Code, the Anthropic SDK) know as overloaded and retry.
 */
export function errorStatus(error: GatewayError, envelope: ErrorEnvelope): number {
  return envelope === 'anthropic' && error.code === 'overloaded' ? 529 : error.status;
}

/** `{"type": "error", "error": {"type", "message"}}`, as the Messages API answers. */
export function anthropicErrorBody(error: GatewayError): string {
  return JSON.stringify({
    type: 'error',
    error: { type: anthropicErrorType(errorStatus(error, 'anthropic')), message: error.message },
  });
}

export function errorBody(error: GatewayError, envelope: ErrorEnvelope, requestId: string): string {
  if (envelope === 'compat') return compatErrorBody(error, requestId);
  return envelope === 'anthropic' ? anthropicErrorBody(error) : nativeErrorBody(error);
}
