import { describe, expect, it } from 'vitest';
import { schemaCases } from '../../test/schema-cases.js';
import { countEmbeddingInputs, embeddingsRequestSchema } from './embeddings-request-schema.js';

const { parse, failure } = schemaCases(embeddingsRequestSchema);

describe('embeddingsRequestSchema', () => {
  it('accepts every input form vLLM and OpenAI accept: string, strings, token ids, token-id arrays', () => {
    expect(parse({ model: 'gamma-m3', input: 'hello' }).input).toBe('hello');
    expect(parse({ model: 'gamma-m3', input: ['a', 'b'] }).input).toEqual(['a', 'b']);
    expect(parse({ model: 'gamma-m3', input: [1, 2, 3] }).input).toEqual([1, 2, 3]);
    expect(parse({ model: 'gamma-m3', input: [[1], [2, 3]] }).input).toEqual([[1], [2, 3]]);
  });

  it('refuses an empty string, an empty array, an empty token-id array and a negative token id, naming the element', () => {
    expect(failure({ model: 'm', input: '' })).toMatchObject({ status: 400, param: 'input' });
    expect(failure({ model: 'm', input: ['a', ''] })).toMatchObject({
      status: 400,
      param: 'input[1]',
    });
    expect(failure({ model: 'm', input: [] })).toMatchObject({ status: 400, param: 'input' });
    expect(failure({ model: 'm', input: [[1], []] })).toMatchObject({
      status: 400,
      param: 'input[1]',
    });
    expect(failure({ model: 'm', input: [1, -1] })).toMatchObject({
      status: 400,
      param: 'input[1]',
    });
    expect(failure({ model: 'm', input: [1.5] })).toMatchObject({ status: 400, param: 'input' });
  });

  it('refuses mixed arrays and non-text values with a message listing the accepted forms', () => {
    const mixed = failure({ model: 'm', input: ['a', 2] });
    expect(mixed).toMatchObject({ status: 400, param: 'input' });
    expect(mixed.message).toContain('token-id');
    expect(failure({ model: 'm', input: { text: 'a' } })).toMatchObject({
      status: 400,
      param: 'input',
    });
  });

  it('refuses more than 2048 inputs and accepts 2048', () => {
    expect(parse({ model: 'm', input: new Array<string>(2048).fill('a') }).input).toHaveLength(
      2048,
    );
    expect(failure({ model: 'm', input: new Array<string>(2049).fill('a') })).toMatchObject({
      status: 400,
      param: 'input',
    });
  });

  it('defaults encoding_format to float (spec) and accepts base64', () => {
    expect(parse({ model: 'm', input: 'a' }).encoding_format).toBe('float');
    expect(parse({ model: 'm', input: 'a', encoding_format: 'base64' }).encoding_format).toBe(
      'base64',
    );
    expect(failure({ model: 'm', input: 'a', encoding_format: 'bytes' })).toMatchObject({
      status: 400,
      param: 'encoding_format',
    });
  });

  it('takes dimensions as a positive integer (the model decides the range later)', () => {
    expect(parse({ model: 'm', input: 'a', dimensions: 256 }).dimensions).toBe(256);
    expect(failure({ model: 'm', input: 'a', dimensions: 0 })).toMatchObject({
      status: 400,
      param: 'dimensions',
    });
    expect(failure({ model: 'm', input: 'a', dimensions: 256.5 })).toMatchObject({
      status: 400,
      param: 'dimensions',
    });
    expect(failure({ model: 'm', input: 'a', dimensions: '256' })).toMatchObject({
      status: 400,
      param: 'dimensions',
    });
  });

  it('accepts user as a string only', () => {
    expect(parse({ model: 'm', input: 'a', user: 'u-1' }).user).toBe('u-1');
    expect(failure({ model: 'm', input: 'a', user: 7 })).toMatchObject({
      status: 400,
      param: 'user',
    });
  });

  it('names missing and unknown parameters', () => {
    expect(failure({ input: 'a' })).toMatchObject({
      status: 400,
      code: 'missing_parameter',
      param: 'model',
    });
    expect(failure({ model: 'm' })).toMatchObject({
      status: 400,
      code: 'missing_parameter',
      param: 'input',
    });
    expect(failure({ model: 'm', input: 'a', dimension: 256 })).toMatchObject({
      status: 400,
      code: 'unknown_parameter',
      param: 'dimension',
    });
  });
});

describe('countEmbeddingInputs', () => {
  it('counts one vector per string or token-id array', () => {
    expect(countEmbeddingInputs('a')).toBe(1);
    expect(countEmbeddingInputs(['a', 'b', 'c'])).toBe(3);
    expect(countEmbeddingInputs([5, 6, 7])).toBe(1);
    expect(countEmbeddingInputs([[5], [6, 7]])).toBe(2);
  });
});
