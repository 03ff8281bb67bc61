import { GatewayError, isGatewayError } from './gateway-error.js';
import { isUpstreamError } from './upstream-error.js';

/** Any thrown value as the GatewayError a client sees; unknown failures become a 500 that reveals nothing. */
export function toGatewayError(error: unknown): GatewayError {
  if (isGatewayError(error)) return error;
  if (isUpstreamError(error)) {
    switch (error.kind) {
      case 'timeout':
        return GatewayError.upstreamTimeout();
      case 'unavailable':
        return new GatewayError({
          status: 503,
          type: 'server_error',
          code: 'no_healthy_upstream',
          message: 'No healthy model server is available; retry shortly.',
          headers: { 'retry-after': String(error.retryAfterSeconds ?? 1) },
        });
      case 'too_large':
        return GatewayError.upstreamFailed(
          'The model server answered with a body over the size limit.',
        );
      case 'aborted':
        return new GatewayError({
          status: 499,
          type: 'invalid_request_error',
          code: 'client_closed_request',
          message: 'The client closed the request.',
        });
      default:
        return GatewayError.upstreamFailed();
    }
  }
  return GatewayError.internal(error);
}
