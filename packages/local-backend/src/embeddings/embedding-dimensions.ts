import { VllmError } from '../http/vllm-error.js';
import type { ServedModel } from '../models/model-registry.js';

/** Dimension of extra (non-catalogue) models used as embedders: the catalogue's gamma-m3 size. */
const fallbackDimensions = 1024;

/**
 * The full and the requested output dimension. vLLM accepts `dimensions` only on matryoshka models (400
 * otherwise) and returns the first N components, renormalised.
 */
export function embeddingDimensions(
  model: ServedModel,
  requested: number | undefined,
): { full: number; output: number } {
  const spec = model.entry?.dimensions;
  if (spec === undefined || spec.kind === 'fixed') {
    const full = spec?.value ?? fallbackDimensions;
    if (requested !== undefined) {
      throw VllmError.badRequest(
        `Model "${model.id}" does not support matryoshka representation, changing output dimensions will lead to poor results.`,
        'dimensions',
      );
    }
    return { full, output: full };
  }
  if (requested === undefined) return { full: spec.max, output: spec.default };
  if (requested < 1)
    throw VllmError.badRequest('dimensions can only be a positive integer.', 'dimensions');
  if (requested < spec.min || requested > spec.max) {
    throw VllmError.badRequest(
      `Model "${model.id}" only supports dimensions between ${spec.min} and ${spec.max}.`,
      'dimensions',
    );
  }
  return { full: spec.max, output: requested };
}

/** The first `output` components, renormalised to unit length. */
export function truncateEmbedding(vector: Float32Array, output: number): Float32Array {
  if (output === vector.length) return vector;
  const head = vector.slice(0, output);
  let sum = 0;
  for (const value of head) sum += value * value;
  const scale = sum === 0 ? 1 : 1 / Math.sqrt(sum);
  for (let index = 0; index < head.length; index += 1) head[index] = (head[index] ?? 0) * scale;
  return head;
}
