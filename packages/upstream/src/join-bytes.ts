import { joinPieces } from '@infergate/core';

/** The pieces of a body as one buffer of `total` bytes; a single piece is returned as it is, uncopied. */
export function joinBytes(pieces: readonly Uint8Array[], total = byteLengthOf(pieces)): Uint8Array {
  return pieces.length === 1 ? (pieces[0] as Uint8Array) : joinPieces(pieces, total);
}

function byteLengthOf(pieces: readonly Uint8Array[]): number {
  let total = 0;
  for (const piece of pieces) total += piece.byteLength;
  return total;
}
