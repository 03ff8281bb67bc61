import { formatResetDuration } from './format-reset-duration.js';
import type { LimitSnapshot, LimitUsage } from './limit-store.js';

function usageHeaders(headers: Record<string, string>, kind: 'requests' | 'tokens', usage: LimitUsage | undefined): void {
  if (usage === undefined) return;
  headers[`x-ratelimit-limit-${kind}`] = String(usage.limit);
  headers[`x-ratelimit-remaining-${kind}`] = String(usage.remaining);
  headers[`x-ratelimit-reset-${kind}`] = formatResetDuration(usage.resetMs);
}

/**
 * The rate-limit headers of the widely used completion API for the limits a key has: limit, remaining
 * and reset of requests and of tokens. A key limited only in concurrency gets none (that API has no
 * header for it).
 */
export function rateLimitHeaders(snapshot: LimitSnapshot): Record<string, string> {
  const headers: Record<string, string> = {};
  usageHeaders(headers, 'requests', snapshot.requests);
  usageHeaders(headers, 'tokens', snapshot.tokens);
  return headers;
}
