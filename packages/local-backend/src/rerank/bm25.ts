import { lexicalTerms } from '../text/lexical-terms.js';

// Okapi BM25 with the usual k1 and b; idf in Lucene's non-negative form ln(1 + (N - df + 0.5) / (df + 0.5)).
const k1 = 1.2;
const b = 0.75;
/** Logit offset: a document sharing nothing with the query scores sigmoid(-2) ~ 0.12, a strong match ~ 1. */
const logitOffset = 2;

export interface Bm25Result {
  index: number;
  /** The BM25 score minus the offset: what a cross-encoder would call its raw logit. */
  logit: number;
  /** sigmoid(logit), in (0, 1), as TEI maps a single-logit reranker's output. */
  relevance: number;
}

/** Scores every document against the query over the shared Qwen3 terms; results sorted most relevant first. */
export function bm25Rank(query: string, documents: readonly string[]): Bm25Result[] {
  const queryTerms = [...new Set(lexicalTerms(query))];
  const documentTerms = documents.map((document) => lexicalTerms(document));
  const averageLength =
    documentTerms.reduce((sum, terms) => sum + terms.length, 0) /
      Math.max(1, documentTerms.length) || 1;
  const documentFrequency = new Map<string, number>();
  for (const terms of documentTerms)
    for (const term of new Set(terms))
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);

  const results = documentTerms.map((terms, index) => {
    const frequency = new Map<string, number>();
    for (const term of terms) frequency.set(term, (frequency.get(term) ?? 0) + 1);
    let score = 0;
    for (const term of queryTerms) {
      const tf = frequency.get(term) ?? 0;
      if (tf === 0) continue;
      const df = documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (documents.length - df + 0.5) / (df + 0.5));
      score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * terms.length) / averageLength));
    }
    const logit = score - logitOffset;
    return { index, logit, relevance: 1 / (1 + Math.exp(-logit)) };
  });
  return results.sort((left, right) => right.logit - left.logit || left.index - right.index);
}
