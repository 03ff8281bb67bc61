export type RejectionReason = 'auth' | 'validation' | 'size' | 'overload' | 'rate_limit' | 'budget';

// 503s that are the gateway's own refusal; an upstream's 503 (no_healthy_upstream) is not a rejection.
const overloadCodes = new Set(['overloaded', 'shutting_down']);

/**
 * Why the gateway refused a request, or undefined when it did not (a success, or a failure of the
 * upstream). A status without a code is one an app answered before dispatch (body too large, bad
 * content type, over the in-flight budget), named by status alone.
 */
export function rejectionReason(
  status: number,
  code: string | undefined,
): RejectionReason | undefined {
  if (status === 401 || status === 403) return 'auth';
  if (status === 413 || status === 431) return 'size';
  if (status === 429) {
    if (code === 'budget_exceeded') return 'budget';
    return code === undefined || code === 'rate_limit_exceeded' ? 'rate_limit' : undefined;
  }
  if (status === 503) return code === undefined || overloadCodes.has(code) ? 'overload' : undefined;
  if (status === 400 || status === 415 || status === 422)
    return code === 'upstream_rejected' ? undefined : 'validation';
  // An unknown model is a bad request; an unknown path or unsupported endpoint is not counted as one.
  if (status === 404) return code === 'model_not_found' ? 'validation' : undefined;
  return undefined;
}
