import { describe, expect, it } from 'vitest';
import { createWebIdSource } from './create-web-id-source.js';

describe('createWebIdSource', () => {
  const ids = createWebIdSource();

  it('gives lower-case hex of the asked length, odd lengths included', () => {
    for (const length of [1, 7, 24, 32])
      expect(ids.hex(length)).toMatch(new RegExp(`^[0-9a-f]{${length}}$`));
  });

  it('gives decimal digits of the asked length whose first is never 0', () => {
    for (let run = 0; run < 500; run += 1) expect(ids.digits(12)).toMatch(/^[1-9][0-9]{11}$/);
    expect(ids.digits(1)).toMatch(/^[1-9]$/);
  });

  it('keeps ids well-formed across refills of its pooled random bytes (4 KiB)', () => {
    expect(ids.hex(10_001)).toMatch(/^[0-9a-f]{10001}$/);
    expect(ids.digits(9_000)).toMatch(/^[1-9][0-9]{8999}$/);
  });

  it('does not repeat itself', () => {
    const seen = new Set(Array.from({ length: 1000 }, () => ids.hex(24)));
    expect(seen.size).toBe(1000);
  });

  it('uses every digit', () => {
    const counts = new Map<string, number>();
    for (const digit of Array.from({ length: 200 }, () => ids.digits(50)).join(''))
      counts.set(digit, (counts.get(digit) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
  });
});
