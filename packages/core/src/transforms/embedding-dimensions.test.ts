import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../catalogue/default-catalogue.js';
import type { ModelEntry } from '../catalogue/catalogue-types.js';
import { embeddingDimensions } from './embedding-dimensions.js';

function entry(id: string): ModelEntry {
  const found = defaultCatalogue.models.get(id);
  if (!found) throw new Error(`no ${id} in the catalogue`);
  return found;
}

function failure(run: () => unknown) {
  try {
    run();
  } catch (error) {
    return error as { status: number; param: string; message: string };
  }
  throw new Error('expected a failure');
}

describe('embeddingDimensions', () => {
  const alpha = entry('alpha3-vl-embedding-8b');
  const gamma = entry('gamma-m3');

  it('sends nothing when nothing was asked for', () => {
    expect(embeddingDimensions(alpha, undefined, 'dimensions', 'range')).toBeUndefined();
    expect(embeddingDimensions(gamma, undefined, 'dimensions', 'range')).toBeUndefined();
  });

  it('takes any integer from 128 to 4096 for alpha3-vl-embedding-8b on /v1/embeddings (spec: 128 to 4096)', () => {
    expect(embeddingDimensions(alpha, 128, 'dimensions', 'range')).toBe(128);
    expect(embeddingDimensions(alpha, 1000, 'dimensions', 'range')).toBe(1000);
    expect(embeddingDimensions(alpha, 4096, 'dimensions', 'range')).toBe(4096);
    expect(failure(() => embeddingDimensions(alpha, 127, 'dimensions', 'range'))).toMatchObject({
      status: 400,
      param: 'dimensions',
    });
    expect(failure(() => embeddingDimensions(alpha, 4097, 'dimensions', 'range'))).toMatchObject({
      status: 400,
      param: 'dimensions',
    });
  });

  it('takes only the listed values on /compat/v2/embed', () => {
    for (const value of [128, 256, 384, 512, 768, 1024, 1536, 2048, 2560, 3072, 3584, 4096]) {
      expect(embeddingDimensions(alpha, value, 'output_dimension', 'list')).toBe(value);
    }
    const error = failure(() => embeddingDimensions(alpha, 1000, 'output_dimension', 'list'));
    expect(error).toMatchObject({ status: 400, param: 'output_dimension' });
    expect(error.message).toContain('1536');
  });

  it("accepts gamma-m3's own 1024 (fixed) without sending it on, and refuses any other value", () => {
    expect(embeddingDimensions(gamma, 1024, 'dimensions', 'range')).toBeUndefined();
    for (const value of [512, 1023, 4096]) {
      const error = failure(() => embeddingDimensions(gamma, value, 'dimensions', 'range'));
      expect(error).toMatchObject({ status: 400, param: 'dimensions' });
      expect(error.message).toContain('1024 dimensions, fixed');
    }
  });
});
