import { describe, expect, it } from 'vitest';
import { schemaCases } from '../../test/schema-cases.js';
import { tokenizeRequestSchema } from './tokenize-request-schema.js';

const { parse, failure } = schemaCases(tokenizeRequestSchema);

describe('tokenizeRequestSchema', () => {
  it('accepts model, prompt and add_special_tokens', () => {
    expect(parse({ model: 'gamma-m3', prompt: 'hi', add_special_tokens: false })).toEqual({
      model: 'gamma-m3',
      prompt: 'hi',
      add_special_tokens: false,
    });
    expect(parse({ model: 'gamma-m3', prompt: '' }).prompt).toBe('');
  });

  it('wants prompt as a string and add_special_tokens as a boolean', () => {
    expect(failure({ model: 'gamma-m3' })).toMatchObject({
      status: 400,
      code: 'missing_parameter',
      param: 'prompt',
    });
    expect(failure({ model: 'gamma-m3', prompt: ['a'] })).toMatchObject({
      status: 400,
      param: 'prompt',
    });
    expect(failure({ model: 'gamma-m3', prompt: 'a', add_special_tokens: 'yes' })).toMatchObject({
      status: 400,
      param: 'add_special_tokens',
    });
  });

  it('refuses unknown parameters such as return_token_strs (token_strs is always null)', () => {
    expect(failure({ model: 'gamma-m3', prompt: 'a', return_token_strs: true })).toMatchObject({
      status: 400,
      code: 'unknown_parameter',
      param: 'return_token_strs',
    });
  });
});
