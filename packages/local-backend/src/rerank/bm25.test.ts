import { describe, expect, it } from 'vitest';
import { bm25Rank } from './bm25.js';

describe('bm25Rank', () => {
  it('prefers the document with more and rarer query terms, case- and position-independently', () => {
    const ranked = bm25Rank('Solar Panels efficiency', [
      'solar panels convert light; panel efficiency matters',
      'Wind turbines',
      'SOLAR heating',
    ]);
    expect(ranked.map((result) => result.index)).toEqual([0, 2, 1]);
    expect(ranked.every((result) => result.relevance > 0 && result.relevance < 1)).toBe(true);
  });

  it('gives documents without a query term the same lowest score', () => {
    const ranked = bm25Rank('zebra', ['apple', 'zebra crossing', 'banana']);
    expect(ranked[0]?.index).toBe(1);
    expect(ranked[1]?.relevance).toBe(ranked[2]?.relevance);
  });
});
