import { bytesText } from './json-text-scanner.js';

// Exact powers of ten as doubles (10^22 is the largest one a double holds exactly).
const powersOfTen = Array.from({ length: 23 }, (_, exponent) => Number(`1e${exponent}`));
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
const lowWord = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;
// The 29 mantissa bits a double has beyond a float32's 23; their midpoint is where float32 rounding turns.
const droppedMask = 0x1fffffff;
const droppedMidpoint = 0x10000000;
// A double built from up to 19 digits is within a few of its units in the last place of the true
// value; this margin keeps every value that close to a float32 rounding midpoint on the exact path.
const midpointMargin = 64;
const maxFastDigits = 19;

/**
 * Writes the JSON numbers of `bytes` between `start` and `end` (a list the scanner checked) into
 * `target` from `offset` as float32, and returns how many: the values
 * `Float32Array.from(JSON.parse(...))` gives, without a string or a number per element. Digits are
 * gathered into an integer and scaled once by an exact power of ten, exact up to 15 digits; a longer
 * number next to a float32 rounding midpoint, or an exponent past 10^22, goes through `Number` instead.
 */
export function writeFloat32Numbers(
  bytes: Uint8Array,
  start: number,
  end: number,
  target: Float32Array,
  offset: number,
): number {
  let written = offset;
  let at = start;
  while (at < end) {
    let code = bytes[at] as number;
    // Blanks and the commas between numbers.
    if (code === 44 || code === 32 || code === 10 || code === 13 || code === 9) {
      at += 1;
      continue;
    }
    const numberStart = at;
    const negative = code === 45;
    if (negative) code = bytes[(at += 1)] as number;
    let mantissa = 0;
    let digits = 0;
    let exponent = 0;
    while (code >= 48 && code <= 57) {
      if (digits > 0 || code !== 48) {
        mantissa = mantissa * 10 + (code - 48);
        digits += 1;
      }
      code = bytes[(at += 1)] as number;
    }
    if (code === 46) {
      code = bytes[(at += 1)] as number;
      while (code >= 48 && code <= 57) {
        // Zeros before the first significant digit only move the point.
        if (digits > 0 || code !== 48) {
          mantissa = mantissa * 10 + (code - 48);
          digits += 1;
        }
        exponent -= 1;
        code = bytes[(at += 1)] as number;
      }
    }
    if (code === 101 || code === 69) {
      code = bytes[(at += 1)] as number;
      const negativeExponent = code === 45;
      if (negativeExponent || code === 43) code = bytes[(at += 1)] as number;
      let written10 = 0;
      while (code >= 48 && code <= 57) {
        // Capped: anything this large is out of float32's range either way and goes to `Number`.
        if (written10 < 10_000) written10 = written10 * 10 + (code - 48);
        code = bytes[(at += 1)] as number;
      }
      exponent += negativeExponent ? -written10 : written10;
    }
    target[written] =
      fastValue(mantissa, digits, exponent, negative) ?? Number(bytesText(bytes, numberStart, at));
    written += 1;
  }
  return written - offset;
}

function fastValue(
  mantissa: number,
  digits: number,
  exponent: number,
  negative: boolean,
): number | undefined {
  if (mantissa === 0) return negative ? -0 : 0;
  if (digits > maxFastDigits || exponent < -22 || exponent > 22) return undefined;
  const magnitude =
    exponent < 0
      ? mantissa / (powersOfTen[-exponent] as number)
      : mantissa * (powersOfTen[exponent] as number);
  if (digits > 15) {
    bits[0] = magnitude;
    const dropped = (words[lowWord] as number) & droppedMask;
    if (dropped > droppedMidpoint - midpointMargin && dropped < droppedMidpoint + midpointMargin)
      return undefined;
  }
  return negative ? -magnitude : magnitude;
}
