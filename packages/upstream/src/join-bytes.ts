/** The pieces of a body as one buffer of `total` bytes; a single piece is returned as it is, uncopied. */
export function joinBytes(pieces: readonly Uint8Array[], total: number): Uint8Array {
  if (pieces.length === 1) return pieces[0] as Uint8Array;
  const body = new Uint8Array(total);
  let offset = 0;
  for (const piece of pieces) {
    body.set(piece, offset);
    offset += piece.byteLength;
  }
  return body;
}
