import { formatResetDuration } from './format-reset-duration.js';
import type { LimitSnapshot } from './limit-store.js';

/*
 * The texts that stay the same from one response to the next (a key's limits for the whole window, the
 * reset within the same millisecond) are kept from the previous call rather than formatted again: most
 * responses of a busy key then format only their two remaining counts.
 */
let requestsLimit = Number.NaN;
let requestsLimitText = '';
let tokensLimit = Number.NaN;
let tokensLimitText = '';
let resetMs = Number.NaN;
let resetText = '';

function limitText(limit: number, tokens: boolean): string {
  if (tokens) {
    if (limit !== tokensLimit) {
      tokensLimit = limit;
      tokensLimitText = String(limit);
    }
    return tokensLimitText;
  }
  if (limit !== requestsLimit) {
    requestsLimit = limit;
    requestsLimitText = String(limit);
  }
  return requestsLimitText;
}

function resetTextOf(milliseconds: number): string {
  if (milliseconds !== resetMs) {
    resetMs = milliseconds;
    resetText = formatResetDuration(milliseconds);
  }
  return resetText;
}

/**
 * The rate-limit headers of the widely used completion API for the limits a key has: limit, remaining
 * and reset of requests and of tokens. A key limited only in concurrency gets none (that API has no
 * header for it).
 *
 * The header names are written out as literals, not composed: composed names are new strings that every
 * response would have to look up again, and these six headers are most of what an admitted request of
 * a limited key costs. A key with both limits gets its headers in one object literal (one shape, one
 * allocation).
 */
export function rateLimitHeaders(snapshot: LimitSnapshot): Record<string, string> {
  const { requests, tokens } = snapshot;
  if (requests !== undefined && tokens !== undefined) {
    return {
      'x-ratelimit-limit-requests': limitText(requests.limit, false),
      'x-ratelimit-remaining-requests': String(requests.remaining),
      'x-ratelimit-reset-requests': resetTextOf(requests.resetMs),
      'x-ratelimit-limit-tokens': limitText(tokens.limit, true),
      'x-ratelimit-remaining-tokens': String(tokens.remaining),
      'x-ratelimit-reset-tokens': resetTextOf(tokens.resetMs),
    };
  }
  const headers: Record<string, string> = {};
  if (requests !== undefined) {
    headers['x-ratelimit-limit-requests'] = limitText(requests.limit, false);
    headers['x-ratelimit-remaining-requests'] = String(requests.remaining);
    headers['x-ratelimit-reset-requests'] = resetTextOf(requests.resetMs);
  }
  if (tokens !== undefined) {
    headers['x-ratelimit-limit-tokens'] = limitText(tokens.limit, true);
    headers['x-ratelimit-remaining-tokens'] = String(tokens.remaining);
    headers['x-ratelimit-reset-tokens'] = resetTextOf(tokens.resetMs);
  }
  return headers;
}
