import { GatewayError } from '../errors/gateway-error.js';
import { utf8ByteLength } from './utf8-byte-length.js';

// A data URL literal of an image, as JSON writers spell it: `"data:image/` or, from writers that
// escape slashes (PHP's json_encode), `"data:image\/`.
const imageLiteralLead = '"data:image';

/** Whether the quote at `index` is escaped: an odd run of backslashes before it. */
function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  while (index - 1 - backslashes >= 0 && text.charCodeAt(index - 1 - backslashes) === 0x5c)
    backslashes += 1;
  return backslashes % 2 === 1;
}

/** Index of the quote that closes the string literal opened at `open`; -1 when there is none. */
function closingQuote(text: string, open: number): number {
  let quote = text.indexOf('"', open + 1);
  while (quote !== -1 && isEscaped(text, quote)) quote = text.indexOf('"', quote + 1);
  return quote;
}

function opensImageLiteral(text: string, at: number): boolean {
  if (isEscaped(text, at)) return false;
  const next = text.charCodeAt(at + imageLiteralLead.length);
  return (
    next === 0x2f || (next === 0x5c && text.charCodeAt(at + imageLiteralLead.length + 1) === 0x2f)
  );
}

/**
 * The text limit of chat and responses bodies (`limits.body_text_bytes`), judged on the raw body before
 * it is parsed: its UTF-8 size without the string literals that hold image data URLs must fit, so a body
 * of 100 MiB of text is refused (413) before any work is spent on it, while images keep the image limit.
 * Finding the literals costs a scan for quotes, no parse. Returns whether image literals were left out:
 * then `checkTextBesideImages` confirms, once parsed, that they sit where images go.
 */
export function checkTextBodySize(body: string | undefined, limitBytes: number): boolean {
  // A UTF-16 code unit is at most 3 bytes of UTF-8: most bodies are decided by their length alone.
  if (body === undefined || body.length <= limitBytes / 3) return false;
  const literals: Array<[start: number, end: number]> = [];
  let textUnits = body.length;
  let at = body.indexOf(imageLiteralLead);
  while (at !== -1) {
    let next = at + 1;
    if (opensImageLiteral(body, at)) {
      const end = closingQuote(body, at);
      // Unterminated: the body is not JSON, and parsing it says so.
      if (end === -1) break;
      literals.push([at, end]);
      textUnits -= end - at + 1;
      next = end + 1;
    }
    at = body.indexOf(imageLiteralLead, next);
  }
  // A code unit is at least one byte: past the limit in units is past it in bytes.
  if (textUnits > limitBytes) throw GatewayError.textTooLarge(limitBytes);
  if (textUnits > limitBytes / 3) {
    let bytes = 0;
    let from = 0;
    for (const [start, end] of literals) {
      bytes += utf8ByteLength(body.slice(from, start));
      from = end + 1;
    }
    bytes += utf8ByteLength(body.slice(from));
    if (bytes > limitBytes) throw GatewayError.textTooLarge(limitBytes);
  }
  return literals.length > 0;
}

/**
 * The second half of the text limit, after parsing: the literals left out must be the request's images.
 * Text that merely starts with `data:image/` in a text field counts as text here. A URL's escapes
 * (`\/`) count as text, so this bound is a little stricter than the first.
 */
export function checkTextBesideImages(
  body: string,
  imageUrls: Iterable<string>,
  limitBytes: number,
): void {
  let textUnits = body.length;
  // Each URL's literal is its characters and two quotes.
  for (const url of imageUrls) textUnits -= url.length + 2;
  if (textUnits > limitBytes) throw GatewayError.textTooLarge(limitBytes);
}
