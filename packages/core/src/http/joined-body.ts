import type { JsonResult } from './handler-types.js';

/** `pieces` copied one after another into a new buffer of `total` bytes (their summed length). */
export function joinPieces(pieces: readonly Uint8Array[], total: number): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(total);
  let at = 0;
  for (const piece of pieces) {
    joined.set(piece, at);
    at += piece.byteLength;
  }
  return joined;
}

/**
 * A result body with its pieces joined into one buffer, for a runtime that takes a body whole (the
 * edge app's Response); text is returned as it is.
 */
export function joinedBody(body: JsonResult['body']): string | Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return body;
  let size = 0;
  for (const piece of body) size += piece.byteLength;
  return joinPieces(body, size);
}
