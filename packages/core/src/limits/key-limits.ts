import type { KeyLimits } from '../config/gateway-config.js';

/** True when at least one limit is set, so that keys without limits cost the limiter nothing. */
export function hasKeyLimits(limits: KeyLimits | undefined): limits is KeyLimits {
  return (
    limits !== undefined &&
    (limits.requestsPerMinute !== undefined ||
      limits.tokensPerMinute !== undefined ||
      limits.concurrentRequests !== undefined)
  );
}

/**
 * One replica's share of a key's limits when the shared store cannot be reached: each limit divided by
 * the replica count, rounded down but at least 1, so that N replicas together stay at or under the limit.
 */
export function divideKeyLimits(limits: KeyLimits, parts: number): KeyLimits {
  if (parts <= 1) return limits;
  const share = (value: number | undefined): number | undefined =>
    value === undefined ? undefined : Math.max(1, Math.floor(value / parts));
  const divided: KeyLimits = {};
  const requests = share(limits.requestsPerMinute);
  const tokens = share(limits.tokensPerMinute);
  const concurrent = share(limits.concurrentRequests);
  if (requests !== undefined) divided.requestsPerMinute = requests;
  if (tokens !== undefined) divided.tokensPerMinute = tokens;
  if (concurrent !== undefined) divided.concurrentRequests = concurrent;
  return divided;
}
