import type { JsonResult } from '../ports/handler-types.js';

/** A result body as text, whichever form the handler wrote it in (tests and logs read it this way). */
export function bodyText(body: JsonResult['body']): string {
  if (typeof body === 'string') return body;
  const decoder = new TextDecoder();
  return body.map((piece) => decoder.decode(piece, { stream: true })).join('') + decoder.decode();
}
