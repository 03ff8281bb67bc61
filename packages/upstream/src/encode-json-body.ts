import { isSplitDataUrl, type SplitDataUrl } from '@infergate/core';
const encoder = new TextEncoder();

// Strings at least this long are not copied into the body: a large base64 image then exists once, as
// the request's string, and is written to the socket a slice at a time, where copies of it into the
// body multiplied the memory an image edit takes.
const largeString = 64 * 1024;
// Printable ASCII without the two characters JSON escapes: such a string is its own JSON text, and
// one byte per character. Base64 and data URLs are.
const plainAscii = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const marker = '\u0000infergate-large-string\u0000';
// How the marker reads in JSON.stringify's output (it escapes the NUL characters).
const markerJson = JSON.stringify(marker);

/**
 * A JSON body as text pieces whose UTF-8 bytes, in order, are the body. Pieces alternate: JSON text,
 * then one of the value's long plain-ASCII strings (shared with the value, not copied), then JSON
 * text again, and so on; the text pieces hold the strings' quotes.
 */
export interface JsonTextPieces {
  /** The body's length in bytes (its Content-Length). */
  byteLength: number;
  pieces: readonly string[];
}

/**
 * A request body: JSON text, bytes, or text pieces for a body that carries long strings (an image's
 * data URL). `jsonBodyBytes` turns any of them into bytes.
 */
export type JsonRequestBody = string | Uint8Array<ArrayBuffer> | JsonTextPieces;

/**
 * A request body with exactly the bytes of `JSON.stringify(value)`: the JSON text when the value holds
 * no long string, text pieces when it holds long plain-ASCII strings, so that they are never copied
 * into one buffer. Text rather than bytes for the usual body: a socket writes text without a buffer
 * of its own per body (undici copies a short one into Node's shared pool), and `JSON.stringify`
 * without a replacer keeps V8's fast path; the replacer is only for values that need it.
 */
export function encodeJsonBody(value: unknown): JsonRequestBody {
  if (!holdsLongString(value)) return JSON.stringify(value);
  // A long string, or a form file's data URL as its head and payload (written apart, never joined).
  const large: (string | SplitDataUrl)[] = [];
  const text = JSON.stringify(
    value,
    function (this: Record<string, unknown>, key: string, item: unknown): unknown {
      // JSON.stringify hands the replacer what toJSON made of the value; the holder still has the value.
      const held = this[key];
      if (isSplitDataUrl(held) && plainAscii.test(held.payload)) {
        large.push(held);
        return marker;
      }
      if (typeof item === 'string' && item.length >= largeString && plainAscii.test(item)) {
        large.push(item);
        return marker;
      }
      return item;
    },
  );
  if (large.length === 0) return text;
  const between = text.split(markerJson);
  // A string of the value's own that happens to equal the marker would break the pairing: serialize plainly.
  if (between.length !== large.length + 1) return JSON.stringify(value);
  const pieces: string[] = [];
  let byteLength = 0;
  between.forEach((piece, index) => {
    const item = large[index];
    // A split data URL's head goes with the text before its payload, escaped as JSON.stringify would.
    const head = isSplitDataUrl(item) ? JSON.stringify(item.head).slice(1, -1) : '';
    const quoted = `${index === 0 ? '' : '"'}${piece}${item === undefined ? '' : '"'}${head}`;
    pieces.push(quoted);
    byteLength += encoder.encode(quoted).byteLength;
    if (item === undefined) return;
    const string = isSplitDataUrl(item) ? item.payload : item;
    pieces.push(string);
    byteLength += string.length;
  });
  return { byteLength, pieces };
}

/** Whether a string of at least `largeString` characters is somewhere in a JSON value. */
function holdsLongString(value: unknown): boolean {
  if (typeof value === 'string') return value.length >= largeString;
  if (typeof value !== 'object' || value === null) return false;
  if (isSplitDataUrl(value)) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsLongString(item)) return true;
    return false;
  }
  for (const key in value)
    if (holdsLongString((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** The body as one array of bytes, for a transport that cannot send pieces (fetch, a Web handler). */
export function jsonBodyBytes(body: JsonRequestBody): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  const bytes = new Uint8Array(body.byteLength);
  let offset = 0;
  for (const piece of body.pieces)
    offset += encoder.encodeInto(piece, bytes.subarray(offset)).written;
  return bytes;
}

/**
 * The pieces with each long string in slices of at most `sliceLength` characters, for a transport
 * that writes them to a socket one at a time: a slice shares the characters of its string and the
 * socket encodes one slice at a time, so the body never exists as bytes whole. Only the plain-ASCII
 * strings are cut, so no character is ever split.
 */
export function* jsonBodySlices(
  body: JsonTextPieces,
  sliceLength = largeString,
): Generator<string> {
  for (const [index, piece] of body.pieces.entries()) {
    if (index % 2 === 0 || piece.length <= sliceLength) {
      if (piece.length > 0) yield piece;
      continue;
    }
    for (let start = 0; start < piece.length; start += sliceLength)
      yield piece.slice(start, start + sliceLength);
  }
}
