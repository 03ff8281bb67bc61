import { GatewayError } from './gateway-error.js';
import { sanitizeUpstreamMessage } from './sanitize-upstream-message.js';

/** The message and param of an upstream error body in any of the shapes our model servers use. */
export function readUpstreamErrorBody(body: unknown): {
  message: string | undefined;
  param: string | null;
} {
  if (typeof body !== 'object' || body === null) return { message: undefined, param: null };
  const record = body as Record<string, unknown>;
  const nested = record.error;
  if (typeof nested === 'object' && nested !== null) {
    const inner = nested as Record<string, unknown>;
    return {
      message: typeof inner.message === 'string' ? inner.message : undefined,
      param: typeof inner.param === 'string' ? inner.param : null,
    };
  }
  // TEI: {"error": "...", "error_type": "..."}; flat vLLM < 0.10.1 and Cohere: {"message": "..."}
  if (typeof nested === 'string') return { message: nested, param: null };
  if (typeof record.message === 'string')
    return {
      message: record.message,
      param: typeof record.param === 'string' ? record.param : null,
    };
  if (typeof record.detail === 'string') return { message: record.detail, param: null };
  return { message: undefined, param: null };
}

/**
 * docs/design.md's status mapping of a non-2xx upstream answer: client 4xx pass through with the upstream's
 * message (hosts stripped), 429 stays 429 with Retry-After, anything else becomes 502.
 */
export function mapUpstreamStatus(
  status: number,
  body: unknown,
  retryAfter: string | undefined,
): GatewayError {
  const { message, param } = readUpstreamErrorBody(body);
  if (status === 429) {
    const seconds =
      retryAfter !== undefined && /^\d+$/.test(retryAfter.trim())
        ? Number(retryAfter.trim())
        : undefined;
    return GatewayError.rateLimited(
      message ? sanitizeUpstreamMessage(message) : 'The model server is rate limiting requests.',
      seconds ?? 1,
    );
  }
  if (
    status >= 400 &&
    status < 500 &&
    status !== 401 &&
    status !== 403 &&
    status !== 407 &&
    status !== 408
  ) {
    // 401/403 from an upstream mean our upstream key is wrong: the client's request is not at fault.
    return GatewayError.upstreamRejected(
      status,
      message
        ? sanitizeUpstreamMessage(message)
        : `The model server rejected the request (status ${status}).`,
      param,
    );
  }
  // The upstream's status rides along as the cause, for the operator's log line (failure-facts.ts).
  if (status === 408) return GatewayError.upstreamTimeout(undefined, { upstreamStatus: status });
  return GatewayError.upstreamFailed(`The model server failed to answer (status ${status}).`, {
    upstreamStatus: status,
  });
}
