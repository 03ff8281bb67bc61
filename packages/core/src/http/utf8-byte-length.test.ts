import { describe, expect, it } from 'vitest';
import { utf8ByteLength } from './utf8-byte-length.js';

describe('utf8ByteLength', () => {
  it.each([
    '',
    'plain ascii',
    'é and ü',
    '漢字テキスト',
    'emoji 😀 pair',
    'lone \ud800 surrogate',
    'x'.repeat(1000) + '€',
  ])('matches TextEncoder for %j', (text) => {
    expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).length);
  });
});
