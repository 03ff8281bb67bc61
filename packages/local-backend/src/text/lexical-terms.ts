import { decodeTokens, encodeText } from './qwen-tokenizer.js';

const termByToken = new Map<number, string>();

/**
 * The text's Qwen3 tokens as normalised terms, shared by the embeddings and BM25: the text is case-folded
 * before tokenizing, each token's surface form is trimmed (so " cat" and "cat" are one term), and tokens
 * without a letter or digit are dropped. A token that is only part of a UTF-8 character keeps its id as term.
 */
export function lexicalTerms(text: string): string[] {
  return tokenTerms(encodeText(text.normalize('NFKC').toLowerCase()));
}

export function tokenTerms(ids: readonly number[]): string[] {
  const terms: string[] = [];
  for (const id of ids) {
    let term = termByToken.get(id);
    if (term === undefined) {
      const surface = decodeTokens([id]).trim();
      term = surface.includes('\uFFFD') ? `#${id}` : surface;
      termByToken.set(id, term);
    }
    if (/[\p{L}\p{N}#]/u.test(term)) terms.push(term);
  }
  return terms;
}
