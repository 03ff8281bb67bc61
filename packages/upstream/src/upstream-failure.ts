import { UpstreamError } from '@infergate/core';
import type { UpstreamFailureKind, UpstreamPhase } from '@infergate/core';

// Fixed texts only: an UpstreamError message can reach a client, so it never carries a host, URL or key.
const messages: Record<UpstreamFailureKind, string> = {
  refused: 'The model server could not be reached.',
  timeout: 'The model server did not answer in time.',
  reset: 'The connection to the model server was lost.',
  too_large: 'The model server answered with more data than the gateway accepts.',
  protocol: 'The model server answered with data the gateway could not read.',
  unavailable: 'No model server is available for this model.',
  aborted: 'The request was cancelled by the client.',
};

/**
 * Builds an UpstreamError with a fixed, host-free message. `code` (a system or undici error code such
 * as ECONNREFUSED) is kept as the cause for logs; the original error is not, because its message
 * names the address.
 */
export function upstreamFailure(
  kind: UpstreamFailureKind,
  phase: UpstreamPhase,
  code?: string,
  detail?: string,
): UpstreamError {
  // Retryable is docs/design.md's list: nothing reached the upstream's application yet, or it said so itself.
  const retryable =
    (kind === 'refused' && phase === 'connect') ||
    (kind === 'timeout' && phase === 'connect') ||
    (kind === 'reset' && phase !== 'body');
  return new UpstreamError({
    kind,
    phase,
    message: detail === undefined ? messages[kind] : `${messages[kind]} ${detail}`,
    retryable,
    cause: code === undefined ? undefined : { code },
  });
}

/** The same failure, naming the upstream that failed last (its config name) and the attempts made, for logs. */
export function withAttemptFacts(
  error: UpstreamError,
  upstream: string | undefined,
  attempts: number,
): UpstreamError {
  return new UpstreamError({
    kind: error.kind,
    phase: error.phase,
    message: error.message,
    retryable: error.retryable,
    ...(error.retryAfterSeconds === undefined
      ? {}
      : { retryAfterSeconds: error.retryAfterSeconds }),
    cause: error.cause,
    ...(upstream === undefined ? {} : { upstream }),
    attempts,
  });
}
