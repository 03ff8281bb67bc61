import { decodeTokens, encodeText } from './qwen-tokenizer.js';

const termByToken = new Map<number, string[]>();
const termsByWord = new Map<string, string[]>();
// Bounds the word cache of a long-running server; refilling it is cheap.
const maxCachedWords = 50_000;

/**
 * The text's Qwen3 tokens as normalised terms, shared by the embeddings and BM25. BPE splits a word
 * differently at the start of a text than after a space ("paris" vs " paris"), so the case-folded text is cut
 * into letter/digit runs and each is tokenized as " <word>"; each token's trimmed surface form is a term.
 */
export function lexicalTerms(text: string): string[] {
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const terms: string[] = [];
  for (const word of words) {
    let wordTerms = termsByWord.get(word);
    if (wordTerms === undefined) {
      wordTerms = tokenTerms(encodeText(` ${word}`));
      if (termsByWord.size >= maxCachedWords) termsByWord.clear();
      termsByWord.set(word, wordTerms);
    }
    terms.push(...wordTerms);
  }
  return terms;
}

/** Terms of raw token ids; a token that is only part of a UTF-8 character keeps its id as its term. */
export function tokenTerms(ids: readonly number[]): string[] {
  const terms: string[] = [];
  for (const id of ids) {
    let term = termByToken.get(id);
    if (term === undefined) {
      const surface = decodeTokens([id]).trim().toLowerCase();
      term = surface.includes('\uFFFD')
        ? [`#${id}`]
        : /[\p{L}\p{N}]/u.test(surface)
          ? [surface]
          : [];
      termByToken.set(id, term);
    }
    terms.push(...term);
  }
  return terms;
}
