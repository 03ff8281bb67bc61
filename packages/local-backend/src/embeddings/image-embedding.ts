import sharp from 'sharp';
import { VllmError } from '../http/vllm-error.js';
import { addHashedFeature, l2Normalize } from './hashed-vector.js';

// 16x16 RGB keeps the coarse layout and colours that make similar images close, at 768 features.
const side = 16;

/**
 * An embedding of an image's downsampled pixels, centred on mid-grey, feature-hashed and L2-normalised.
 * An image that cannot be decoded is the client's fault: 400, as vLLM answers it, so that it never
 * counts against this server as a failure.
 */
export async function imageEmbedding(bytes: Uint8Array, dimensions: number): Promise<Float32Array> {
  let pixels: Buffer;
  try {
    pixels = await sharp(bytes).resize(side, side, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  } catch {
    throw VllmError.badRequest('The image could not be decoded.');
  }
  const vector = new Float32Array(dimensions);
  for (let index = 0; index < pixels.length; index += 1) {
    addHashedFeature(vector, `px:${index}`, (pixels[index] ?? 0) / 255 - 0.5);
  }
  return l2Normalize(vector);
}

/** Sum of unit vectors, renormalised: a text-and-image input lands between its parts. */
export function combineEmbeddings(
  parts: readonly Float32Array[],
  dimensions: number,
): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const part of parts)
    for (let index = 0; index < dimensions; index += 1)
      vector[index] = (vector[index] ?? 0) + (part[index] ?? 0);
  return l2Normalize(vector);
}
