import type { JsonResult } from '../ports/handler-types.js';

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

/** The summed length of `pieces`. */
export function piecesByteLength(pieces: readonly Uint8Array[]): number {
  let size = 0;
  for (const piece of pieces) size += piece.byteLength;
  return size;
}

/** `pieces` as one array: the piece itself, uncopied, when there is just one; else a joined copy of `total` bytes. */
export function wholeBytes(
  pieces: readonly Uint8Array[],
  total = piecesByteLength(pieces),
): Uint8Array {
  return pieces.length === 1 ? (pieces[0] as Uint8Array) : joinPieces(pieces, total);
}

/**
 * A result body with its pieces joined into one buffer, for a runtime that takes a body whole (the
 * edge app's Response); text is returned as it is.
 */
export function joinedBody(body: JsonResult['body']): string | Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return body;
  return joinPieces(body, piecesByteLength(body));
}
