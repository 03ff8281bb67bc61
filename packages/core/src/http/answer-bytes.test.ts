import { describe, expect, it } from 'vitest';
import { AnswerBytes } from './answer-bytes.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `text` cut at `cuts` (positions in it, ascending; a repeated one gives an empty piece). */
const piecesOf = (text: string, cuts: number[]) => {
  const bytes = encoder.encode(text);
  const bounds = [0, ...cuts, bytes.length];
  return bounds.slice(1).map((end, index) => bytes.slice(bounds[index], end));
};

describe('AnswerBytes', () => {
  const text = '{"embedding":[0.25,-1e-3,7]}';
  const layouts = [
    [],
    [1],
    [13, 14],
    [5, 5, 20],
    [...Array(text.length - 1).keys()].map((index) => index + 1),
  ];

  it('gives every range of the whole, in one array and as subarrays of the pieces, however the answer was cut', () => {
    for (const cuts of layouts) {
      const answer = new AnswerBytes(piecesOf(text, cuts));
      expect(answer.byteLength).toBe(text.length);
      expect(decoder.decode(answer.whole()), `cuts ${cuts.join(',')}`).toBe(text);
      for (let start = 0; start <= text.length; start += 1) {
        for (let end = start; end <= text.length; end += 1) {
          const where = `cuts ${cuts.join(',')}, ${start}-${end}`;
          expect(decoder.decode(answer.range(start, end)), where).toBe(text.slice(start, end));
          const parts: Uint8Array[] = [];
          answer.appendRange(start, end, parts);
          expect(parts.map((part) => decoder.decode(part)).join(''), where).toBe(
            text.slice(start, end),
          );
          // No empty subarray, and no more of them than the pieces the range touches.
          expect(
            parts.every((part) => part.byteLength > 0),
            where,
          ).toBe(true);
        }
      }
    }
  });

  it('shares the memory of the pieces where it can: a range inside one piece and the pieces of any range are not copies', () => {
    const pieces = piecesOf(text, [10]);
    const answer = new AnswerBytes(pieces);
    expect(answer.range(2, 8).buffer).toBe(pieces[0]?.buffer);
    const parts: Uint8Array[] = [];
    answer.appendRange(4, 20, parts);
    expect(parts.map((part) => part.buffer)).toEqual([pieces[0]?.buffer, pieces[1]?.buffer]);
    expect(new AnswerBytes([pieces[0] as Uint8Array]).whole()).toBe(pieces[0]);
  });
});
