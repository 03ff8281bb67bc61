import { utf8ByteLength } from '@infergate/core';
import { longestTokenBytes } from './longest-token-bytes.js';

// A UTF-16 code unit is at most 3 bytes of UTF-8.
const maxBytesPerCodeUnit = 3;

/**
 * A lower bound on the Qwen3 tokens of `text`, found without tokenizing it, when that bound reaches
 * `threshold`; undefined when it does not. The tokenizer encodes the text's NFC form, and each token
 * stands for at most `longestTokenBytes()` of its bytes, so the bound is exact: never above the real
 * count. Short texts are answered by their length alone.
 */
export function tokenFloorReaching(text: string, threshold: number): number | undefined {
  const longest = longestTokenBytes();
  if (Math.ceil((text.length * maxBytesPerCodeUnit) / longest) < threshold) return undefined;
  const floor = Math.ceil(utf8ByteLength(text.normalize('NFC')) / longest);
  return floor >= threshold ? floor : undefined;
}
