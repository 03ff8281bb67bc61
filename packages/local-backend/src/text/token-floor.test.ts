import { describe, expect, it } from 'vitest';
import { decodeTokens, encodeText, maxTokenId } from './qwen-tokenizer.js';
import { longestTokenBytes } from './longest-token-bytes.js';
import { tokenFloorReaching } from './token-floor.js';

describe('longestTokenBytes', () => {
  it('is the most bytes any token decodes to', () => {
    const encoder = new TextEncoder();
    let longest = 0;
    for (let id = 0; id <= maxTokenId; id += 1)
      longest = Math.max(longest, encoder.encode(decodeTokens([id])).length);
    expect(longestTokenBytes()).toBe(longest);
  });
});

describe('tokenFloorReaching', () => {
  // Texts that pack many bytes into few tokens, or that NFC makes shorter before they are tokenized.
  const texts = {
    'runs of spaces': ' '.repeat(20_000),
    'one repeated letter': 'a'.repeat(20_000),
    'CJK text': '中文文本测试'.repeat(3_000),
    'decomposed accents (NFC composes them)': 'e\u0301'.repeat(10_000),
    'Hangul jamo (NFC composes three into one)': '\u1100\u1161\u11a8'.repeat(5_000),
    'special tokens': '<|im_start|><|endoftext|>'.repeat(1_000),
  };

  it.each(Object.entries(texts))('never exceeds the real token count: %s', (_name, text) => {
    const tokens = encodeText(text).length;
    const floor = tokenFloorReaching(text, 1);
    expect(floor).toBeGreaterThan(0);
    expect(floor).toBeLessThanOrEqual(tokens);
  });

  it('answers undefined while the bound stays below the threshold, short texts without measuring them', () => {
    expect(tokenFloorReaching('hello', 2)).toBeUndefined();
    const text = 'x'.repeat(longestTokenBytes() * 10);
    expect(tokenFloorReaching(text, 10)).toBe(10);
    expect(tokenFloorReaching(text, 11)).toBeUndefined();
  });
});
