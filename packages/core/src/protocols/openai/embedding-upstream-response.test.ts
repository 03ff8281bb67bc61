import { describe, expect, it } from 'vitest';
import { readEmbeddingUpstreamResponse } from './embedding-upstream-response.js';

function failure(run: () => unknown) {
  try {
    run();
  } catch (error) {
    return error as { status: number; code: string };
  }
  throw new Error('expected a failure');
}

// protocols.md 3.2: vLLM's EmbeddingResponse.
const vllmBody = {
  id: 'embd-0a1b2c',
  object: 'list',
  created: 1,
  model: 'served',
  data: [
    { index: 1, object: 'embedding', embedding: [0.5, 0.25] },
    { index: 0, object: 'embedding', embedding: [1, 0] },
  ],
  usage: { prompt_tokens: 7, total_tokens: 7, completion_tokens: 0, prompt_tokens_details: null },
};

// protocols.md 5.3: TEI's OpenAI-compatible answer has no id and no created.
const teiBody = { object: 'list', data: [{ object: 'embedding', embedding: [3, 4], index: 0 }], model: 'x', usage: { prompt_tokens: 2, total_tokens: 2 } };

describe('readEmbeddingUpstreamResponse', () => {
  it('orders vectors by index and reads the vLLM id and usage', () => {
    expect(readEmbeddingUpstreamResponse(vllmBody, 2, undefined)).toEqual({ id: 'embd-0a1b2c', vectors: [[1, 0], [0.5, 0.25]], promptTokens: 7, totalTokens: 7 });
  });

  it('reads a TEI answer, which has no id', () => {
    expect(readEmbeddingUpstreamResponse(teiBody, 1, undefined)).toEqual({ id: undefined, vectors: [[3, 4]], promptTokens: 2, totalTokens: 2 });
  });

  it('does not pass on an id of another form', () => {
    expect(readEmbeddingUpstreamResponse({ ...teiBody, id: 'cmpl-xyz' }, 1, undefined).id).toBeUndefined();
  });

  it('is a 502 for a body of the wrong shape', () => {
    expect(failure(() => readEmbeddingUpstreamResponse([[1, 2]], 1, undefined))).toMatchObject({ status: 502, code: 'upstream_error' });
    expect(failure(() => readEmbeddingUpstreamResponse({ data: [{ index: 0, embedding: 'AAAA' }], usage: { prompt_tokens: 1 } }, 1, undefined))).toMatchObject({ status: 502 });
    expect(failure(() => readEmbeddingUpstreamResponse({ data: [{ index: 0, embedding: [1] }] }, 1, undefined))).toMatchObject({ status: 502 });
  });

  it('is a 502 when the count, the indexes or the dimensions do not match the request', () => {
    expect(failure(() => readEmbeddingUpstreamResponse(vllmBody, 3, undefined))).toMatchObject({ status: 502 });
    const repeated = { ...vllmBody, data: [vllmBody.data[0], vllmBody.data[0]] };
    expect(failure(() => readEmbeddingUpstreamResponse(repeated, 2, undefined))).toMatchObject({ status: 502 });
    expect(failure(() => readEmbeddingUpstreamResponse(vllmBody, 2, 3))).toMatchObject({ status: 502 });
    expect(readEmbeddingUpstreamResponse(vllmBody, 2, 2).vectors).toHaveLength(2);
  });
});
