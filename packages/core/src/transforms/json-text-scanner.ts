/**
 * A forward-only reader over JSON text that checks the grammar (RFC 8259) as it goes without building
 * values: a reader that wants a few fields of a large answer (the vectors of an embeddings answer) skips
 * the rest and keeps the positions of what it splices on. Every failure is a JsonTextError naming what
 * was expected and where, so the caller can turn it into its own error.
 */
export class JsonTextError extends Error {}

// Nesting past this in a part the reader skips is refused rather than risk the stack.
const maxDepth = 256;

// Character codes.
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

const jsonNumber = '-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?';
const blanks = '[ \\t\\n\\r]*';
// A non-empty array of JSON numbers, from its `[` to its `]`.
const numberListPattern = new RegExp(`\\[${blanks}(?:${jsonNumber}${blanks},${blanks})*${jsonNumber}${blanks}\\]`, 'y');

const isDigit = (code: number): boolean => code >= zero && code <= nine;
const isHex = (code: number): boolean => isDigit(code) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);

export class JsonTextScanner {
  /** The position of the next character to read. */
  at = 0;

  constructor(readonly text: string) {}

  fail(expected: string): never {
    throw new JsonTextError(this.at >= this.text.length ? `expected ${expected}, found the end of the text` : `expected ${expected} at offset ${this.at}`);
  }

  skipWhitespace(): void {
    const text = this.text;
    let at = this.at;
    for (;;) {
      const code = text.charCodeAt(at);
      if (code !== space && code !== lineFeed && code !== carriageReturn && code !== tab) break;
      at += 1;
    }
    this.at = at;
  }

  /** The next non-blank character's code, without reading it (NaN at the end). */
  peek(): number {
    this.skipWhitespace();
    return this.text.charCodeAt(this.at);
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
    if (!Number.isNaN(this.peek())) this.fail('the end of the text');
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
    return this.text.slice(start, this.at);
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
    return escaped ? (JSON.parse(this.text.slice(start, this.at)) as string) : this.text.slice(start + 1, this.at - 1);
  }

  /** Reads a string (the cursor is on its quote); true when it holds an escape. */
  private skipString(): boolean {
    const text = this.text;
    let at = this.at + 1;
    let escaped = false;
    for (;;) {
      const code = text.charCodeAt(at);
      if (code === quote) break;
      if (code === backslash) {
        escaped = true;
        const next = text.charCodeAt(at + 1);
        if (next === 117 /* u */) {
          if (!(isHex(text.charCodeAt(at + 2)) && isHex(text.charCodeAt(at + 3)) && isHex(text.charCodeAt(at + 4)) && isHex(text.charCodeAt(at + 5)))) {
            this.at = at;
            this.fail('a \\u escape of four hex digits');
          }
          at += 6;
          continue;
        }
        // ", \, /, b, f, n, r, t
        if (next !== quote && next !== backslash && next !== slash && next !== 98 && next !== 102 && next !== 110 && next !== 114 && next !== 116) {
          this.at = at;
          this.fail('a valid escape');
        }
        at += 2;
        continue;
      }
      // Control characters must be escaped; NaN is the end of the text.
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
    const end = numberEnd(this.text, this.at);
    if (end < 0) this.fail('a number');
    this.at = end;
  }

  /**
   * Reads an array of numbers without converting one: returns how many it holds and leaves `at` after
   * its `]`. The numbers' text is `text.slice(start + 1, at - 1)` for a `start` taken before the call.
   */
  numberArray(): number {
    this.skipWhitespace();
    const start = this.at;
    this.skipNumberArray();
    return countNumbers(this.text, start + 1, this.at - 1);
  }

  /**
   * Checks an array of numbers and leaves `at` after its `]`, without counting them: a caller that
   * needs the count only sometimes (an embedding's dimensions) counts with countNumbers then.
   */
  skipNumberArray(): void {
    this.skipWhitespace();
    const text = this.text;
    const start = this.at;
    if (text.charCodeAt(start) !== openBracket) this.fail('an array of numbers');
    // The pattern runs as native code, twice as fast as the loop below (a profile of 16 x 1024 floats);
    // the loop reads what it does not match (empty arrays) and names what is wrong.
    numberListPattern.lastIndex = start;
    let matched = false;
    try {
      matched = numberListPattern.test(text);
    } catch {
      // A list too long for the pattern's backtracking stack: the loop reads it.
    }
    if (!matched) {
      this.numberArrayByHand();
      return;
    }
    this.at = numberListPattern.lastIndex;
  }

  private numberArrayByHand(): number {
    this.at += 1;
    const text = this.text;
    this.skipWhitespace();
    if (text.charCodeAt(this.at) === closeBracket) {
      this.at += 1;
      return 0;
    }
    let count = 0;
    let at = this.at;
    for (;;) {
      const end = numberEnd(text, at);
      if (end < 0) {
        this.at = at;
        this.fail('a number');
      }
      count += 1;
      at = end;
      let code = text.charCodeAt(at);
      // Compact writers (vLLM, TEI) put nothing between numbers; others may put blanks.
      while (code === space || code === lineFeed || code === carriageReturn || code === tab) code = text.charCodeAt((at += 1));
      if (code === comma) {
        at += 1;
        code = text.charCodeAt(at);
        while (code === space || code === lineFeed || code === carriageReturn || code === tab) code = text.charCodeAt((at += 1));
        continue;
      }
      if (code === closeBracket) break;
      this.at = at;
      this.fail("',' or ']'");
    }
    this.at = at + 1;
    return count;
  }

  private literal(word: string): boolean {
    if (!this.text.startsWith(word, this.at)) return false;
    this.at += word.length;
    return true;
  }
}

/** Where the JSON number starting at `at` ends, or -1 when the text there is not one. */
export function numberEnd(text: string, start: number): number {
  let at = start;
  let code = text.charCodeAt(at);
  if (code === minus) code = text.charCodeAt((at += 1));
  if (code === zero) code = text.charCodeAt((at += 1));
  else if (isDigit(code)) {
    do code = text.charCodeAt((at += 1));
    while (isDigit(code));
  } else return -1;
  if (code === dot) {
    code = text.charCodeAt((at += 1));
    if (!isDigit(code)) return -1;
    do code = text.charCodeAt((at += 1));
    while (isDigit(code));
  }
  if (code === lowerE || code === upperE) {
    code = text.charCodeAt((at += 1));
    if (code === plus || code === minus) code = text.charCodeAt((at += 1));
    if (!isDigit(code)) return -1;
    do code = text.charCodeAt((at += 1));
    while (isDigit(code));
  }
  return at;
}

/**
 * How many numbers the text of a checked number array holds (between its brackets): its commas plus
 * one, or none when it holds only blanks. Commas appear only between numbers in a checked array.
 */
export function countNumbers(text: string, start: number, end: number): number {
  let count = 0;
  for (let comma = text.indexOf(',', start); comma !== -1 && comma < end; comma = text.indexOf(',', comma + 1)) count += 1;
  if (count > 0) return count + 1;
  for (let at = start; at < end; at += 1) {
    const code = text.charCodeAt(at);
    if (code !== space && code !== lineFeed && code !== carriageReturn && code !== tab) return 1;
  }
  return 0;
}
