/** String values at least this long are taken from the body text as slices instead of being parsed. */
export const sliceableStringLength = 64 * 1024;

type Reviver = (this: unknown, key: string, value: unknown) => unknown;

// JSON.parse copies every string value out of its source: a 50 MiB data URL would exist twice, as the
// body text and as the parsed value. A slice of the text shares its characters instead. The marker is a
// NUL character and the literal's index; a body that has a NUL of its own (`\u0000`) is parsed plainly.
const markerLead = '\u0000';
// eslint-disable-next-line no-control-regex -- raw control characters are what JSON strings may not hold
const controlCharacter = /[\u0000-\u001f]/;

interface Literal {
  /** Index of the opening quote. */
  start: number;
  /** Index of the closing quote. */
  end: number;
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** The long string values of `text` without escapes; undefined when the text is not well-formed enough to tell. */
function findLongLiterals(text: string): Literal[] | undefined {
  const literals: Literal[] = [];
  let nextBackslash = -2;
  let position = text.indexOf('"');
  while (position >= 0) {
    const start = position;
    // Where the literal's characters continue after the escapes seen so far.
    let scan = start + 1;
    let end = text.indexOf('"', scan);
    let escaped = false;
    for (;;) {
      if (end < 0) return undefined;
      if (nextBackslash !== -1 && nextBackslash < scan) nextBackslash = text.indexOf('\\', scan);
      if (nextBackslash === -1 || nextBackslash > end) break;
      // An escape before the candidate closing quote: skip the escaped character (which may be that quote).
      escaped = true;
      scan = nextBackslash + 2;
      if (end < scan) end = text.indexOf('"', scan);
    }
    if (!escaped && end - start - 1 >= sliceableStringLength) {
      let next = end + 1;
      while (next < text.length && isWhitespace(text.charCodeAt(next))) next += 1;
      // A key keeps its place in the text: only values are sliced.
      if (text.charCodeAt(next) !== 0x3a) literals.push({ start, end });
    }
    position = text.indexOf('"', end + 1);
  }
  return literals;
}

/**
 * JSON.parse for a body whose long string values (data URLs, long documents) become slices of `text`
 * rather than copies. Undefined when there is nothing to gain or the text needs the plain parser (it
 * has no long plain literal, a `\u0000`, a control character in a long literal, or is not valid JSON):
 * the caller then parses plainly, which also gives JSON.parse's own error for a broken body.
 */
export function parseJsonWithSlices(text: string, reviver?: Reviver): unknown {
  if (text.length < sliceableStringLength || text.includes('\\u0000')) return undefined;
  const literals = findLongLiterals(text);
  if (literals === undefined || literals.length === 0) return undefined;
  const values: string[] = [];
  let compact = '';
  let from = 0;
  for (const { start, end } of literals) {
    const value = text.slice(start + 1, end);
    if (controlCharacter.test(value)) return undefined;
    compact += `${text.slice(from, start)}"\\u0000${values.length}"`;
    values.push(value);
    from = end + 1;
  }
  compact += text.slice(from);
  const revive = function (this: unknown, key: string, value: unknown): unknown {
    const resolved =
      typeof value === 'string' && value.startsWith(markerLead)
        ? values[Number(value.slice(1))]
        : value;
    return reviver === undefined ? resolved : reviver.call(this, key, resolved);
  };
  try {
    return JSON.parse(compact, revive);
  } catch (error) {
    // A poisoned key is the reviver's verdict, the same on the whole text; anything else is left to the plain parse.
    if (reviver !== undefined && !(error instanceof SyntaxError) && !(error instanceof RangeError))
      throw error;
    return undefined;
  }
}
