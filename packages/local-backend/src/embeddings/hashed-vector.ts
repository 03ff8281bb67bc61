import { fnvHash } from '../text/fnv-hash.js';

// Two independent hashes: one picks the bucket, the other the sign, so collisions cancel out on average
// (the signed "hashing trick").
const signSeed = 0x9e3779b9;

export function addHashedFeature(vector: Float32Array, key: string, weight: number): void {
  const bucket = fnvHash(key) % vector.length;
  const sign = (fnvHash(key, signSeed) & 1) === 0 ? 1 : -1;
  vector[bucket] = (vector[bucket] ?? 0) + sign * weight;
}

/** Scales to unit L2 norm; an all-zero vector gets one fixed unit component so cosine stays defined. */
export function l2Normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  if (sum === 0) {
    addHashedFeature(vector, '<empty>', 1);
    return vector;
  }
  const scale = 1 / Math.sqrt(sum);
  for (let index = 0; index < vector.length; index += 1)
    vector[index] = (vector[index] ?? 0) * scale;
  return vector;
}
