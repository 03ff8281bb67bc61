import { formatResetDuration } from './format-reset-duration.js';
import type { LimitSnapshot } from './limit-store.js';

/**
 * The rate-limit headers of the widely used completion API for the limits a key has: limit, remaining
 * and reset of requests and of tokens. A key limited only in concurrency gets none (that API has no
 * header for it).
 *
 * The header names are written out as literals, not composed: composed names are new strings that every
 * response would have to look up again, and these six headers are most of what an admitted request of
 * a limited key costs.
 */
export function rateLimitHeaders(snapshot: LimitSnapshot): Record<string, string> {
  const headers: Record<string, string> = {};
  const { requests, tokens } = snapshot;
  // Requests and tokens share their window, so their reset is usually formatted once.
  const requestsReset = requests === undefined ? undefined : formatResetDuration(requests.resetMs);
  if (requests !== undefined) {
    headers['x-ratelimit-limit-requests'] = String(requests.limit);
    headers['x-ratelimit-remaining-requests'] = String(requests.remaining);
    headers['x-ratelimit-reset-requests'] = requestsReset as string;
  }
  if (tokens !== undefined) {
    headers['x-ratelimit-limit-tokens'] = String(tokens.limit);
    headers['x-ratelimit-remaining-tokens'] = String(tokens.remaining);
    headers['x-ratelimit-reset-tokens'] = tokens.resetMs === requests?.resetMs && requestsReset !== undefined ? requestsReset : formatResetDuration(tokens.resetMs);
  }
  return headers;
}
