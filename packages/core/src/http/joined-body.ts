import type { JsonResult } from './handler-types.js';

/**
 * A result body with its pieces joined into one buffer, for a runtime that takes a body whole (the
 * edge app's Response); text is returned as it is.
 */
export function joinedBody(body: JsonResult['body']): string | Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return body;
  let size = 0;
  for (const piece of body) size += piece.byteLength;
  const joined = new Uint8Array(size);
  let at = 0;
  for (const piece of body) {
    joined.set(piece, at);
    at += piece.byteLength;
  }
  return joined;
}
