import { formatResetDuration } from './format-reset-duration.js';
import type { LimitSnapshot, LimitUsage } from './limit-store.js';

function usageHeaders(headers: Record<string, string>, kind: 'requests' | 'tokens', usage: LimitUsage | undefined, reset: string | undefined): void {
  if (usage === undefined) return;
  headers[`x-ratelimit-limit-${kind}`] = String(usage.limit);
  headers[`x-ratelimit-remaining-${kind}`] = String(usage.remaining);
  headers[`x-ratelimit-reset-${kind}`] = reset ?? formatResetDuration(usage.resetMs);
}

/**
 * The rate-limit headers of the widely used completion API for the limits a key has: limit, remaining
 * and reset of requests and of tokens. A key limited only in concurrency gets none (that API has no
 * header for it).
 */
export function rateLimitHeaders(snapshot: LimitSnapshot): Record<string, string> {
  const headers: Record<string, string> = {};
  // Requests and tokens share their window, so their reset is usually formatted once.
  const requestsReset = snapshot.requests === undefined ? undefined : formatResetDuration(snapshot.requests.resetMs);
  usageHeaders(headers, 'requests', snapshot.requests, requestsReset);
  usageHeaders(headers, 'tokens', snapshot.tokens, snapshot.tokens?.resetMs === snapshot.requests?.resetMs ? requestsReset : undefined);
  return headers;
}
