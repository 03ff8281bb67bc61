import { describe, expect, it } from 'vitest';
import { schemaCases } from '../../test/schema-cases.js';
import { compatRerankRequestSchema } from './compat-rerank-request-schema.js';

const base = { model: 'gamma-reranker-v2-m3', query: 'q', documents: ['a', 'b'] };

const { parse, failure } = schemaCases(compatRerankRequestSchema);

describe('compatRerankRequestSchema', () => {
  it('accepts the Cohere v2 rerank body', () => {
    expect(parse({ ...base, top_n: 1, max_tokens_per_doc: 512 })).toEqual({
      ...base,
      top_n: 1,
      max_tokens_per_doc: 512,
    });
  });

  it('wants a non-empty query', () => {
    expect(failure({ ...base, query: '' })).toMatchObject({ status: 400, param: 'query' });
    expect(failure({ model: 'm', documents: ['a'] })).toMatchObject({
      status: 400,
      code: 'missing_parameter',
      param: 'query',
    });
  });

  it('wants a non-empty array of strings as documents', () => {
    expect(failure({ ...base, documents: [] })).toMatchObject({ status: 400, param: 'documents' });
    expect(failure({ ...base, documents: ['a', { text: 'b' }] })).toMatchObject({
      status: 400,
      param: 'documents[1]',
    });
  });

  it('wants top_n and max_tokens_per_doc as integers from 1', () => {
    expect(failure({ ...base, top_n: 0 })).toMatchObject({ status: 400, param: 'top_n' });
    expect(failure({ ...base, top_n: 1.5 })).toMatchObject({ status: 400, param: 'top_n' });
    expect(failure({ ...base, max_tokens_per_doc: 0 })).toMatchObject({
      status: 400,
      param: 'max_tokens_per_doc',
    });
  });

  it('refuses v1 fields such as return_documents by name', () => {
    expect(failure({ ...base, return_documents: true })).toMatchObject({
      status: 400,
      code: 'unknown_parameter',
      param: 'return_documents',
    });
  });
});
