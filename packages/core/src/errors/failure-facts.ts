import { isUpstreamError } from './upstream-error.js';
import { toGatewayError } from './to-gateway-error.js';

/** Why a request was answered with a 5xx, for the operator's log line; never a body, a URL or a key. */
export interface FailureFacts {
  /**
   * `refused`, `reset`, `timeout`, `too_large`, `protocol` or `unavailable` when reaching or reading the
   * upstream failed; `bad_status` when it answered a status the gateway maps to a 5xx; `unparseable_body`
   * when its 2xx body was not what the protocol promises; otherwise the error code answered
   * (`model_not_configured`, `overloaded`, `internal_error`...).
   */
  cause: string;
  /** The upstream's own status, with `bad_status`. */
  upstreamStatus?: number;
  /** With `unparseable_body`: the JSON path that failed and why (`data[0].embedding: expected an array of numbers`). */
  path?: string;
  /** With `internal_error`: the name of what was thrown (`TypeError`), to find it in the code. */
  errorName?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** The facts of any thrown value, read from an UpstreamError's kind or a GatewayError's cause. */
export function failureFacts(error: unknown): FailureFacts {
  if (isUpstreamError(error)) return { cause: error.kind };
  const gatewayError = toGatewayError(error);
  const cause: unknown = gatewayError.cause;
  if (isRecord(cause) && typeof cause.upstreamStatus === 'number')
    return { cause: 'bad_status', upstreamStatus: cause.upstreamStatus };
  if (isRecord(cause) && typeof cause.detail === 'string')
    return { cause: 'unparseable_body', path: cause.detail };
  if (gatewayError.code === 'internal_error' && cause instanceof Error)
    return { cause: gatewayError.code, errorName: cause.name };
  return { cause: gatewayError.code };
}

/**
 * The fields both apps add to a 5xx request's log line, the same names everywhere: `attempts` and the
 * facts above (`cause` is `unknown` when nothing recorded one). Absent facts stay absent.
 */
export function failureLogFields(facts: {
  attempts?: number;
  failure?: FailureFacts;
}): Record<string, string | number> {
  const fields: Record<string, string | number> = { cause: facts.failure?.cause ?? 'unknown' };
  if (facts.attempts !== undefined) fields.attempts = facts.attempts;
  if (facts.failure?.upstreamStatus !== undefined)
    fields.upstreamStatus = facts.failure.upstreamStatus;
  if (facts.failure?.path !== undefined) fields.path = facts.failure.path;
  if (facts.failure?.errorName !== undefined) fields.errorName = facts.failure.errorName;
  return fields;
}
