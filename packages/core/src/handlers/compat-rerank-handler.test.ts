import { describe, expect, it } from 'vitest';
import { compatRerankHandler } from './compat-rerank-handler.js';
import type { UpstreamTarget } from '../ports/ports.js';
import { fakeUpstream, jsonInput, testContext } from './test-ports.js';
import type { UpstreamResponder } from './test-ports.js';
import { bodyText } from '../http/body-text.js';

const model = 'gamma-reranker-v2-m3';
const documents = ['d0', 'd1', 'd2', 'd3'];
// Scores per document index: the most relevant order is 2, 0, 3, 1.
const scores = [0.7, 0.1, 0.9, 0.4];
const meta = {
  api_version: { version: '2', is_experimental: true },
  billed_units: { search_units: 1 },
};

// Cohere v2 answers results already sorted, optionally with id and meta.
const cohere: UpstreamResponder = () => ({
  body: {
    id: 'co-1',
    results: [2, 0, 3, 1].map((index) => ({ index, relevance_score: scores[index] })),
    meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
  },
});
// vLLM's Jina-style body, document text echoed, usage counted.
const vllm: UpstreamResponder = () => ({
  body: {
    id: 'rerank-1',
    model: 'served',
    usage: { prompt_tokens: 21, total_tokens: 21 },
    results: [2, 0].map((index) => ({
      index,
      document: { text: documents[index] },
      relevance_score: scores[index],
    })),
  },
});
// TEI answers a bare array, sorted, no top_n.
const tei: UpstreamResponder = () => ({
  body: [2, 0, 3, 1].map((index) => ({ index, score: scores[index] })),
});

async function run(
  target: UpstreamTarget,
  respond: UpstreamResponder,
  body: Record<string, unknown>,
) {
  const upstream = fakeUpstream({ [model]: target }, respond);
  const result = await compatRerankHandler(
    jsonInput({ model, query: 'q', documents, ...body }, { requestId: 'req-9' }),
    testContext({ upstream }),
  );
  if (result.kind !== 'json') throw new Error('expected JSON');
  return {
    result,
    body: JSON.parse(bodyText(result.body)) as Record<string, unknown>,
    calls: upstream.calls,
  };
}

async function failure(
  target: UpstreamTarget,
  respond: UpstreamResponder,
  body: Record<string, unknown> = {},
) {
  try {
    await run(target, respond, body);
  } catch (error) {
    return error as { status: number; code: string; param: string | null };
  }
  throw new Error('expected a failure');
}

const top2 = [
  { index: 2, relevance_score: 0.9 },
  { index: 0, relevance_score: 0.7 },
];

describe('compatRerankHandler', () => {
  it('calls a Cohere upstream on /v2/rerank with the Cohere body and answers Cohere v2 cut to top_n', async () => {
    const { body, calls, result } = await run({ protocol: 'cohere', model: 'served-co' }, cohere, {
      top_n: 2,
      max_tokens_per_doc: 512,
    });
    expect(calls[0]).toMatchObject({
      path: '/v2/rerank',
      stream: false,
      body: { model: 'served-co', query: 'q', documents, top_n: 2, max_tokens_per_doc: 512 },
    });
    expect(body).toEqual({ id: 'req-9', results: top2, meta });
    expect(result.headers['x-infergate-ignored-params']).toBeUndefined();
  });

  it('calls vLLM on /rerank with the Jina body and drops document and usage from the answer', async () => {
    const { body, calls, result } = await run({ protocol: 'openai', model: 'served-v' }, vllm, {
      top_n: 2,
    });
    expect(calls[0]).toMatchObject({
      path: '/rerank',
      body: { model: 'served-v', query: 'q', documents, top_n: 2 },
    });
    expect(body).toEqual({ id: 'req-9', results: top2, meta });
    expect(result.meta).toEqual({ model, endpoint: 'fake-1', inputTokens: 21 });
  });

  it('asks vLLM for every document when top_n is absent', async () => {
    const { calls } = await run({ protocol: 'openai', model: 'served-v' }, vllm, {});
    expect((calls[0]?.body as { top_n: number }).top_n).toBe(documents.length);
  });

  it('calls TEI on /rerank with {query, texts} and applies top_n itself', async () => {
    const { body, calls } = await run({ protocol: 'tei', model: 'served-t' }, tei, { top_n: 2 });
    expect(calls[0]?.body).toEqual({ query: 'q', texts: documents });
    expect(body).toEqual({ id: 'req-9', results: top2, meta });
  });

  it('sorts most relevant first whatever order the upstream used, and returns all without top_n', async () => {
    const unsorted: UpstreamResponder = () => ({
      body: [1, 3, 0, 2].map((index) => ({ index, score: scores[index] })),
    });
    const { body } = await run({ protocol: 'tei', model: 'served-t' }, unsorted, {});
    expect(body.results).toEqual(
      [2, 0, 3, 1].map((index) => ({ index, relevance_score: scores[index] })),
    );
  });

  it('returns every result when top_n exceeds the documents', async () => {
    const { body } = await run({ protocol: 'tei', model: 'served-t' }, tei, { top_n: 50 });
    expect(body.results).toHaveLength(4);
  });

  it('names max_tokens_per_doc as ignored where the upstream has no such field', async () => {
    const { result, calls } = await run({ protocol: 'tei', model: 'served-t' }, tei, {
      max_tokens_per_doc: 100,
    });
    expect(result.headers['x-infergate-ignored-params']).toBe('max_tokens_per_doc');
    expect(calls[0]?.body).toEqual({ query: 'q', texts: documents });
  });

  it('is a 502 for an answer of the wrong shape or pointing outside the documents', async () => {
    expect(await failure({ protocol: 'tei', model: 't' }, cohere)).toMatchObject({
      status: 502,
      code: 'upstream_error',
    });
    expect(await failure({ protocol: 'openai', model: 'v' }, tei)).toMatchObject({ status: 502 });
    expect(
      await failure({ protocol: 'tei', model: 't' }, () => ({ body: [{ index: 4, score: 1 }] })),
    ).toMatchObject({ status: 502 });
    expect(
      await failure({ protocol: 'tei', model: 't' }, () => ({
        body: [
          { index: 0, score: 1 },
          { index: 0, score: 0.5 },
        ],
      })),
    ).toMatchObject({ status: 502 });
  });

  it('maps upstream errors and refuses models that do not rerank', async () => {
    expect(
      await failure({ protocol: 'tei', model: 't' }, () => ({
        status: 413,
        body: { error: 'batch size 40 > maximum allowed batch size 32', error_type: 'Validation' },
      })),
    ).toMatchObject({ status: 413, code: 'upstream_rejected' });
    expect(
      await failure({ protocol: 'openai', model: 'v' }, () => ({ status: 503, body: {} })),
    ).toMatchObject({ status: 502 });
    expect(await failure({ protocol: 'images', model: 'x' }, tei)).toMatchObject({ status: 502 });
    const upstream = fakeUpstream({}, tei);
    await expect(
      compatRerankHandler(
        jsonInput({ model: 'gamma-m3', query: 'q', documents }),
        testContext({ upstream }),
      ),
    ).rejects.toMatchObject({
      status: 400,
      code: 'model_not_supported',
    });
    await expect(
      compatRerankHandler(jsonInput({ model, query: 'q', documents }), testContext({ upstream })),
    ).rejects.toMatchObject({
      status: 503,
      code: 'model_not_configured',
    });
  });
});
