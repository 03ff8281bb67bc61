import type { Base64Encoder } from '../ports/ports.js';
import type { VectorText } from './upstream-embeddings.js';
import { writeFloat32Numbers } from './write-float32-numbers.js';

const littleEndianHost = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

// One float buffer, reused by every call up to this many components (4 MiB): the encoder turns each
// vector into a string before the call returns, so no caller keeps the bytes. A fresh buffer per
// answer was V8 external memory, which counts against the old generation's allocation limit until a
// scavenge frees it, and started full collections in bursts under load.
const reusedComponents = 1024 * 1024;
let reused = new Float32Array(0);

function floatsFor(total: number): Float32Array {
  if (total > reusedComponents) return new Float32Array(total);
  if (reused.length < total)
    reused = new Float32Array(Math.min(reusedComponents, Math.max(total, reused.length * 2)));
  return reused;
}

/**
 * Each vector of upstream answers as base64 of its little-endian float32 bytes: the layout vLLM, TEI
 * and Cohere send for `base64` embeddings and that openai-node decodes.
 * The numbers go from the answers' text straight into one float32 buffer for all vectors.
 */
export function vectorsBase64(
  vectors: readonly VectorText[],
  encodeBase64: Base64Encoder,
): string[] {
  let total = 0;
  for (const vector of vectors) total += vector.length;
  const floats = floatsFor(total);
  const bytes = new Uint8Array(floats.buffer, 0, total * 4);
  const encoded = new Array<string>(vectors.length);
  let offset = 0;
  for (let index = 0; index < vectors.length; index += 1) {
    const vector = vectors[index] as (typeof vectors)[number];
    const text = vector.answer.range(vector.start, vector.end);
    // The buffer holds an earlier answer's floats: a count off from the scanner's would send them on.
    if (writeFloat32Numbers(text, 0, text.length, floats, offset) !== vector.length)
      throw new Error('vector length differs from its number count');
    const own = bytes.subarray(offset * 4, (offset + vector.length) * 4);
    if (!littleEndianHost) swapFloat32Bytes(own);
    encoded[index] = encodeBase64(own);
    offset += vector.length;
  }
  return encoded;
}

function swapFloat32Bytes(bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; at += 4) {
    const first = bytes[at] as number;
    const second = bytes[at + 1] as number;
    bytes[at] = bytes[at + 3] as number;
    bytes[at + 1] = bytes[at + 2] as number;
    bytes[at + 2] = second;
    bytes[at + 3] = first;
  }
}
