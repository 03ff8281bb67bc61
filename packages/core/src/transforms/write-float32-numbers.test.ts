import { describe, expect, it } from 'vitest';
import { writeFloat32Numbers } from './write-float32-numbers.js';

const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

// The reference: the double JSON.parse reads, rounded to float32 as a Float32Array stores it.
function reference(text: string): Float32Array {
  return Float32Array.from(JSON.parse(`[${text}]`) as number[]);
}

function written(text: string): Float32Array {
  const target = new Float32Array(text.split(',').length + 2).fill(7);
  const count = writeFloat32Numbers(bytesOf(text), 0, text.length, target, 1);
  return target.subarray(1, 1 + count);
}

// Compared as bits, so that -0 and 0 differ; the first difference is reported.
function sameBits(actual: Float32Array, expected: Float32Array): void {
  expect(actual.length).toBe(expected.length);
  const left = new Uint32Array(actual.slice().buffer);
  const right = new Uint32Array(expected.slice().buffer);
  const differs = left.findIndex((bits, index) => bits !== right[index]);
  expect(
    differs === -1
      ? undefined
      : { at: differs, actual: actual[differs], expected: expected[differs] },
  ).toBeUndefined();
}

describe('writeFloat32Numbers', () => {
  it('reads every JSON number form as JSON.parse does, -0 included', () => {
    const text =
      '-0.0, 0,1e-05 ,\n-2.5E+3,7,-1.25e-7,0.5e1,123456789012345678901234,1e-300,-1e39,3.4028235677973366e+38,1.401298464324817e-45,0.10000000149011612,-0.0123456789012345678';
    const result = written(text);
    expect(result).toHaveLength(text.split(',').length);
    sameBits(result, reference(text));
    expect(Object.is(result[0], -0)).toBe(true);
  });

  it('writes only its slice and leaves the rest of the target alone', () => {
    const target = new Float32Array(4).fill(9);
    expect(writeFloat32Numbers(bytesOf('[1,2]'), 1, 4, target, 2)).toBe(2);
    expect([...target]).toEqual([9, 9, 1, 2]);
  });

  it('matches JSON.parse bit for bit on many float32 values printed with 17 digits, and on float32 midpoints', () => {
    let seed = 12_345;
    const random = () => {
      seed = Math.imul(seed ^ (seed >>> 15), 2_246_822_507) >>> 0;
      seed = Math.imul(seed ^ (seed >>> 13), 3_266_489_909) >>> 0;
      return seed / 2 ** 32;
    };
    const floats = Array.from({ length: 20_000 }, () =>
      Math.fround((random() - 0.5) * 10 ** Math.floor(random() * 12 - 8)),
    );
    // Values halfway between two float32s: the double-rounding cases a fast path can get wrong.
    const midpoints = floats.slice(0, 2_000).map((value) => {
      const bits = new Float32Array([value]);
      const next = new Uint32Array(bits.buffer);
      next[0] = (next[0] as number) + 1;
      return (value + (bits[0] as number)) / 2;
    });
    for (const values of [floats, midpoints]) {
      for (const text of [
        values.map(String).join(','),
        values.map((value) => value.toPrecision(17)).join(','),
        values.map((value) => value.toExponential(18)).join(','),
      ]) {
        sameBits(written(text), reference(text));
      }
    }
  });
});
