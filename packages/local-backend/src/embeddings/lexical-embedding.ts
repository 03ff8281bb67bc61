import { addHashedFeature, l2Normalize } from './hashed-vector.js';

const bigramWeight = 0.5;

/** Feature-hashed, signed term unigrams and (at half weight) bigrams, L2-normalised. */
export function lexicalEmbedding(terms: readonly string[], dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const [index, term] of terms.entries()) {
    addHashedFeature(vector, `u:${term}`, 1);
    const next = terms[index + 1];
    if (next !== undefined) addHashedFeature(vector, `b:${term}\u0001${next}`, bigramWeight);
  }
  return l2Normalize(vector);
}
