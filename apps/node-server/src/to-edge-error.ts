import { GatewayError, isGatewayError } from '@infergate/core';

interface FrameworkError {
  code?: unknown;
  statusCode?: unknown;
}

/**
 * Fastify's own failures (detected before a handler runs: body limit, content type, broken body) as
 * core's errors, so that they reach the client in the same envelopes as every other error.
 */
export function toEdgeError(
  error: unknown,
  context: { bodyLimit: number; contentType: string | undefined },
): GatewayError {
  if (isGatewayError(error)) return error;
  const { code, statusCode } = (
    typeof error === 'object' && error !== null ? error : {}
  ) as FrameworkError;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return GatewayError.payloadTooLarge(context.bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_TYPE':
      return GatewayError.unsupportedMediaType(context.contentType);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return GatewayError.invalidJson('the body is empty.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return GatewayError.badRequest(
        'The request body length does not match its Content-Length header.',
      );
    default:
      break;
  }
  if (statusCode === 408) return GatewayError.requestTimeout();
  if (statusCode === 413) return GatewayError.payloadTooLarge(context.bodyLimit);
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500)
    return GatewayError.badRequest('The request could not be read.');
  return GatewayError.internal(error);
}
