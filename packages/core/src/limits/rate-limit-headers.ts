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
 * and reset of requests and of tokens; none for a concurrency-only key (that API has no header for it).
 * The names are literals, not composed, so that no response has to look a new string up again.
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
  if (requests !== undefined)
    addRateLimitHeaders(
      headers,
      requests.limit,
      requests.remaining,
      undefined,
      0,
      requests.resetMs,
    );
  if (tokens !== undefined)
    addRateLimitHeaders(headers, undefined, 0, tokens.limit, tokens.remaining, tokens.resetMs);
  return headers;
}

/**
 * rateLimitHeaders written into a response's own headers, from an admission's figures (a limit left
 * undefined: its three headers are not written), in the same order: no record of them is made per
 * request, only the two remaining counts are new strings.
 */
export function addRateLimitHeaders(
  headers: Record<string, string>,
  requestsLimit: number | undefined,
  remainingRequests: number,
  tokensLimit: number | undefined,
  remainingTokens: number,
  resetMs: number,
): void {
  if (requestsLimit !== undefined) {
    headers['x-ratelimit-limit-requests'] = limitText(requestsLimit, false);
    headers['x-ratelimit-remaining-requests'] = String(remainingRequests);
    headers['x-ratelimit-reset-requests'] = resetTextOf(resetMs);
  }
  if (tokensLimit !== undefined) {
    headers['x-ratelimit-limit-tokens'] = limitText(tokensLimit, true);
    headers['x-ratelimit-remaining-tokens'] = String(remainingTokens);
    headers['x-ratelimit-reset-tokens'] = resetTextOf(resetMs);
  }
}
