const encoder = new TextEncoder();

// Strings at least this long are written into the body's bytes directly rather than through the
// serialized text: a 50 MiB base64 image then exists as the request's string and the body's bytes,
// not also as a 50 MiB JSON text in between (issue 8: a 50 MiB edit grew RSS by 5 x its size).
const largeString = 64 * 1024;
// Printable ASCII without the two characters JSON escapes: such a string is its own JSON text, and
// one byte per character. Base64 and data URLs are.
const plainAscii = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const marker = '\u0000infergate-large-string\u0000';
// How the marker reads in JSON.stringify's output (it escapes the NUL characters).
const markerJson = JSON.stringify(marker);

/**
 * A request body as UTF-8 JSON bytes: exactly the bytes of `JSON.stringify(value)`, built without
 * that text when the value holds large plain-ASCII strings.
 */
export function encodeJsonBody(value: unknown): Uint8Array<ArrayBuffer> {
  const large: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'string' && item.length >= largeString && plainAscii.test(item)) {
      large.push(item);
      return marker;
    }
    return item;
  });
  if (large.length === 0) return encoder.encode(text);
  const pieces = text.split(markerJson);
  // A string of the value's own that happens to equal the marker would break the pairing: serialize plainly.
  if (pieces.length !== large.length + 1) return encoder.encode(JSON.stringify(value));
  const encodedPieces = pieces.map((piece) => encoder.encode(piece));
  let total = 0;
  for (const piece of encodedPieces) total += piece.byteLength;
  for (const item of large) total += item.length + 2;
  const bytes = new Uint8Array(total);
  let offset = 0;
  encodedPieces.forEach((piece, index) => {
    bytes.set(piece, offset);
    offset += piece.byteLength;
    const item = large[index];
    if (item === undefined) return;
    bytes[offset] = 0x22;
    offset += encoder.encodeInto(item, bytes.subarray(offset + 1)).written + 1;
    bytes[offset] = 0x22;
    offset += 1;
  });
  return bytes;
}
