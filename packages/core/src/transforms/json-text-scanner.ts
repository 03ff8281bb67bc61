import { wasmBase64End, wasmListCount, wasmNumberListEnd } from './json-text-wasm-check.js';

/**
 * A forward-only reader over JSON text (UTF-8 bytes) that checks the grammar (RFC 8259) without
 * building values: a reader that wants a few fields of a large answer skips the rest and keeps the
 * positions of what it splices on, never decoding the bytes to a string. Every failure is a
 * JsonTextError naming what was expected and where.
 */
export class JsonTextError extends Error {}

// Nesting past this in a part the reader skips is refused rather than risk the stack.
const maxDepth = 256;

// Byte values.
const tab = 9;
const lineFeed = 10;
const carriageReturn = 13;
const space = 32;
const quote = 34;
const plus = 43;
const comma = 44;
const minus = 45;
const dot = 46;
const slash = 47;
const zero = 48;
const nine = 57;
const colon = 58;
const upperE = 69;
const openBracket = 91;
const backslash = 92;
const closeBracket = 93;
const lowerE = 101;
const openBrace = 123;
const closeBrace = 125;

// Past the last byte, reads give undefined, which every comparison below treats as "not this byte".
const isDigit = (code: number): boolean => code >= zero && code <= nine;
const isHex = (code: number): boolean =>
  isDigit(code) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);

const decoder = new TextDecoder();

// 1 for the bytes of the standard base64 alphabet: A-Z, a-z, 0-9, + and /.
const base64Alphabet = new Uint8Array(256);
for (const character of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')
  base64Alphabet[character.charCodeAt(0)] = 1;

/**
 * The text of `bytes` between `start` and `end`. Short ASCII runs (member names, small values) are
 * built here: a decoder call costs more than the loop for the seventy-odd names of an answer.
 */
export function bytesText(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= 32) {
    let text = '';
    for (let at = start; at < end; at += 1) {
      const code = bytes[at] as number;
      if (code >= 128) return decoder.decode(bytes.subarray(start, end));
      text += String.fromCharCode(code);
    }
    return text;
  }
  return decoder.decode(bytes.subarray(start, end));
}

export class JsonTextScanner {
  /** The position of the next byte to read. */
  at = 0;

  // The same memory as 32-bit words, for reading four digits at a time (numberListEnd); made on first use.
  private words: Int32Array | undefined;

  constructor(readonly bytes: Uint8Array) {}

  fail(expected: string): never {
    throw new JsonTextError(
      this.at >= this.bytes.length
        ? `expected ${expected}, found the end of the text`
        : `expected ${expected} at offset ${this.at}`,
    );
  }

  skipWhitespace(): void {
    const bytes = this.bytes;
    let at = this.at;
    for (;;) {
      const code = bytes[at];
      if (code !== space && code !== lineFeed && code !== carriageReturn && code !== tab) break;
      at += 1;
    }
    this.at = at;
  }

  /** The next non-blank byte, without reading it (-1 at the end). */
  peek(): number {
    this.skipWhitespace();
    return this.at < this.bytes.length ? (this.bytes[this.at] as number) : -1;
  }

  /** Reads `code` (after blanks) or fails naming `expected`. */
  expect(code: number, expected: string): void {
    if (this.peek() !== code) this.fail(expected);
    this.at += 1;
  }

  /** Reads `code` (after blanks) when it is next; true if it was. */
  take(code: number): boolean {
    if (this.peek() !== code) return false;
    this.at += 1;
    return true;
  }

  /** After blanks, fails unless the text ends here. */
  end(): void {
    if (this.peek() !== -1) this.fail('the end of the text');
  }

  /**
   * Walks the members of the object starting here, calling `member` with each key; `member` must read
   * the value (or call `skipValue`). Keys with escapes are decoded, others sliced.
   */
  object(member: (key: string) => void): void {
    this.expect(openBrace, 'an object');
    if (this.take(closeBrace)) return;
    do {
      if (this.peek() !== quote) this.fail('a member name');
      const key = this.string();
      this.expect(colon, "':'");
      member(key);
    } while (this.take(comma));
    this.expect(closeBrace, "',' or '}'");
  }

  /** Walks the items of the array starting here, calling `item` with each position; `item` must read the value. */
  array(item: (position: number) => void): void {
    this.expect(openBracket, 'an array');
    if (this.take(closeBracket)) return;
    let position = 0;
    do {
      item(position);
      position += 1;
    } while (this.take(comma));
    this.expect(closeBracket, "',' or ']'");
  }

  /** Reads one value of any kind and returns its text (for small values the caller then parses). */
  valueText(): string {
    this.skipWhitespace();
    const start = this.at;
    this.skipValue();
    return bytesText(this.bytes, start, this.at);
  }

  /** Reads one value of any kind, checking its grammar. */
  skipValue(depth = 0): void {
    const code = this.peek();
    if (code === quote) {
      this.skipString();
    } else if (code === openBrace || code === openBracket) {
      if (depth >= maxDepth) this.fail(`at most ${maxDepth} levels of nesting`);
      if (code === openBrace) this.object(() => this.skipValue(depth + 1));
      else this.array(() => this.skipValue(depth + 1));
    } else if (code === minus || isDigit(code)) {
      this.skipNumber();
    } else if (!this.literal('true') && !this.literal('false') && !this.literal('null')) {
      this.fail('a value');
    }
  }

  /** Reads a string and returns its value. */
  string(): string {
    const start = this.at;
    const escaped = this.skipString();
    return escaped
      ? (JSON.parse(bytesText(this.bytes, start, this.at)) as string)
      : bytesText(this.bytes, start + 1, this.at - 1);
  }

  /**
   * Reads a string (the cursor is on its quote); true when it holds an escape. Bytes of multi-byte
   * UTF-8 characters are all 0x80 or above, so they pass as the characters they are part of.
   */
  private skipString(): boolean {
    const bytes = this.bytes;
    let at = this.at + 1;
    let escaped = false;
    for (;;) {
      const code = bytes[at] as number;
      if (code === quote) break;
      if (code === backslash) {
        escaped = true;
        const next = bytes[at + 1] as number;
        if (next === 117 /* u */) {
          if (!(
            isHex(bytes[at + 2] as number) &&
            isHex(bytes[at + 3] as number) &&
            isHex(bytes[at + 4] as number) &&
            isHex(bytes[at + 5] as number)
          )) {
            this.at = at;
            this.fail('a \\u escape of four hex digits');
          }
          at += 6;
          continue;
        }
        // ", \, /, b, f, n, r, t
        if (
          next !== quote &&
          next !== backslash &&
          next !== slash &&
          next !== 98 &&
          next !== 102 &&
          next !== 110 &&
          next !== 114 &&
          next !== 116
        ) {
          this.at = at;
          this.fail('a valid escape');
        }
        at += 2;
        continue;
      }
      // Control characters must be escaped; undefined is the end of the text.
      if (!(code >= space)) {
        this.at = at;
        this.fail('the end of the string');
      }
      at += 1;
    }
    this.at = at + 1;
    return escaped;
  }

  /** Reads a number at the cursor (no blanks before it); fails unless it has JSON's grammar. */
  skipNumber(): void {
    const end = numberEnd(this.bytes, this.at);
    if (end < 0) this.fail('a number');
    this.at = end;
  }

  /**
   * Reads an array of numbers without converting one: checks each number's grammar, returns how many
   * it holds and leaves `at` after its `]`. The numbers' bytes are between the `[` (at `start`, taken
   * before the call, after blanks) and `at - 1`.
   */
  numberArray(): number {
    this.skipWhitespace();
    const bytes = this.bytes;
    if (bytes[this.at] !== openBracket) this.fail('an array of numbers');
    this.at += 1;
    this.skipWhitespace();
    if (bytes[this.at] === closeBracket) {
      this.at += 1;
      return 0;
    }
    const wasmEnd = wasmNumberListEnd(bytes, this.at, this);
    let end: number;
    if (wasmEnd === undefined) {
      // A view of whole words from the buffer's start: `bytes` may begin anywhere in it.
      this.words ??= new Int32Array(bytes.buffer, 0, bytes.buffer.byteLength >> 2);
      end = numberListEnd(bytes, this.words, bytes.byteOffset, this.at);
    } else {
      end = wasmEnd;
    }
    if (end < 0) {
      this.at = -end - 1;
      this.fail(
        bytes[this.at - 1] === comma || this.at === 0 ? 'a number' : "a number, ',' or ']'",
      );
    }
    this.at = end;
    return wasmEnd === undefined ? listCount : wasmListCount();
  }

  /**
   * Reads a string holding standard base64 (RFC 4648 alphabet, `=` padding, no escapes or blanks) and
   * returns how many bytes it encodes, or -1 when it holds anything else (the cursor is then on the first
   * byte that is not base64).
   */
  base64String(): number {
    this.skipWhitespace();
    const bytes = this.bytes;
    if (bytes[this.at] !== quote) this.fail('a string');
    // One pass that reads the alphabet and stops at anything else: the quote after up to two `=`, or a
    // byte that makes the string something other than base64 (an escape included).
    const start = this.at + 1;
    let at = wasmBase64End(bytes, start, this) ?? start;
    const alphabet = base64Alphabet;
    while (alphabet[bytes[at] as number] === 1) at += 1;
    let padding = 0;
    while (padding < 2 && bytes[at] === 61 /* = */) {
      at += 1;
      padding += 1;
    }
    if (bytes[at] !== quote || (at - start) % 4 !== 0) {
      this.at = at;
      return -1;
    }
    this.at = at + 1;
    return ((at - start) / 4) * 3 - padding;
  }

  private literal(word: string): boolean {
    const bytes = this.bytes;
    for (let index = 0; index < word.length; index += 1)
      if (bytes[this.at + index] !== word.charCodeAt(index)) return false;
    this.at += word.length;
    return true;
  }
}

// How many numbers the last numberListEnd read: a module variable, so that the loop returns one small integer.
let listCount = 0;

/**
 * Checks the numbers of an array from `start` (its first number) to its `]`: the position after the
 * `]`, or -1 - the position of the first byte that breaks the grammar. One loop, every step written
 * out, byte values as literals (48-57 digits, 45 `-`, 43 `+`, 46 `.`, 101 69 `e` `E`, 44 `,`, 93 `]`,
 * 32 10 13 9 blanks): calls or named constants were slower. Digits after a point are read four at a
 * time where aligned in `words` (`offset`: where `bytes` starts in it), never past `bytes`.
 */
function numberListEnd(
  bytes: Uint8Array,
  words: Int32Array,
  offset: number,
  start: number,
): number {
  const last = bytes.length - 4;
  let at = start;
  let count = 0;
  for (;;) {
    let code = bytes[at] as number;
    if (code === 45) code = bytes[++at] as number;
    if (code === 48) code = bytes[++at] as number;
    else if (code > 48 && code <= 57) {
      do code = bytes[++at] as number;
      while (code >= 48 && code <= 57);
    } else return -1 - at;
    if (code === 46) {
      code = bytes[++at] as number;
      if (!(code >= 48 && code <= 57)) return -1 - at;
      code = bytes[++at] as number;
      while (code >= 48 && code <= 57 && ((offset + at) & 3) !== 0) code = bytes[++at] as number;
      if (code >= 48 && code <= 57) {
        // Aligned: a word whose four bytes each have the high nibble 3 and a low nibble of 9 or less.
        while (at <= last) {
          const word = words[(offset + at) >> 2] as number;
          if ((word & 0xf0f0f0f0) !== 0x30303030 || ((word & 0x0f0f0f0f) + 0x06060606) & 0x10101010)
            break;
          at += 4;
        }
        code = bytes[at] as number;
        while (code >= 48 && code <= 57) code = bytes[++at] as number;
      }
    }
    if (code === 101 || code === 69) {
      code = bytes[++at] as number;
      if (code === 43 || code === 45) code = bytes[++at] as number;
      if (!(code >= 48 && code <= 57)) return -1 - at;
      do code = bytes[++at] as number;
      while (code >= 48 && code <= 57);
    }
    count += 1;
    // Compact writers (vLLM, TEI) put nothing between numbers; others may put blanks.
    while (code === 32 || code === 10 || code === 13 || code === 9) code = bytes[++at] as number;
    if (code === 44) {
      code = bytes[++at] as number;
      while (code === 32 || code === 10 || code === 13 || code === 9) code = bytes[++at] as number;
      continue;
    }
    if (code === 93) {
      listCount = count;
      return at + 1;
    }
    return -1 - at;
  }
}

/** Where the JSON number starting at `start` ends, or -1 when the bytes there are not one. */
export function numberEnd(bytes: Uint8Array, start: number): number {
  let at = start;
  let code = bytes[at] as number;
  if (code === minus) code = bytes[(at += 1)] as number;
  if (code === zero) code = bytes[(at += 1)] as number;
  else if (isDigit(code)) at = digitsEnd(bytes, at + 1);
  else return -1;
  code = bytes[at] as number;
  if (code === dot) {
    if (!isDigit(bytes[at + 1] as number)) return -1;
    at = digitsEnd(bytes, at + 2);
    code = bytes[at] as number;
  }
  if (code === lowerE || code === upperE) {
    code = bytes[(at += 1)] as number;
    if (code === plus || code === minus) code = bytes[(at += 1)] as number;
    if (!isDigit(code)) return -1;
    at = digitsEnd(bytes, at + 1);
  }
  return at;
}

/** Where the run of digits starting at `start` ends. */
function digitsEnd(bytes: Uint8Array, start: number): number {
  let at = start;
  while (isDigit(bytes[at] as number)) at += 1;
  return at;
}
