import type { z } from 'zod';

/*
 * How many items the request arrays may hold, as the APIs the gateway follows accept them. Each item
 * costs validation and later work, so these bound one request's work; zod checks an array's size
 * before any of its items (its `.max()` runs first), so an oversized array costs nothing per item.
 */

/** Messages of a chat request, and input items of a responses request: the completion API's 2048. */
export const maxMessages = 2048;

/** Content parts of one message: generous for text, images and replayed turns alike. */
export const maxContentParts = 64;

/** Tools offered, and tool calls of one replayed assistant message: the completion API's 128. */
export const maxTools = 128;

/** Documents of one rerank request: Cohere's rerank API takes at most 10,000. */
export const maxRerankDocuments = 10_000;

/** "array too long" with the limit and the length sent, as the completion API words it. */
export function arrayTooLong(maximum: number, length: number): string {
  return `array too long: at most ${maximum} items, but got ${length}`;
}

/** The `error` option of such a `.max()`. */
export const tooManyItems = {
  error: (issue: z.core.$ZodRawIssue): string => {
    const maximum = Number((issue as { maximum?: unknown }).maximum);
    return arrayTooLong(maximum, Array.isArray(issue.input) ? issue.input.length : Number.NaN);
  },
};
