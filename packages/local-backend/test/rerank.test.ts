import { describe, expect, it } from 'vitest';
import { postJson, useTestServer } from './test-server.js';
import type { CohereRerank } from './wire-types.js';

const server = useTestServer();
const documents = [
  'Bananas are rich in potassium and easy to carry.',
  'The Eiffel Tower is the tallest structure in Paris, the capital of France.',
  'Berlin has many museums and a long history.',
  'Paris hosts many museums.',
];
const query = 'Eiffel Tower height in Paris';

describe('POST /v2/rerank (Cohere v2)', () => {
  it('ranks the document holding the query terms first, with scores in (0,1) sorted most relevant first', async () => {
    const { status, json } = await postJson<CohereRerank>(`${server.url()}/v2/rerank`, {
      model: 'gamma-reranker-v2-m3',
      query,
      documents,
    });
    expect(status).toBe(200);
    expect(typeof json.id).toBe('string');
    expect(json.results[0]?.index).toBe(1);
    expect(json.results.map((result) => result.index).sort()).toEqual([0, 1, 2, 3]);
    for (const [position, result] of json.results.entries()) {
      expect(Object.keys(result).sort()).toEqual(['index', 'relevance_score']);
      expect(result.relevance_score).toBeGreaterThan(0);
      expect(result.relevance_score).toBeLessThan(1);
      if (position > 0)
        expect(result.relevance_score).toBeLessThanOrEqual(
          json.results[position - 1]?.relevance_score ?? 1,
        );
    }
    // Neither the bananas nor the Berlin document shares a query term: they come last.
    expect(
      json.results
        .slice(2)
        .map((result) => result.index)
        .sort(),
    ).toEqual([0, 2]);
    expect(json.meta).toEqual({ api_version: { version: '2' }, billed_units: { search_units: 1 } });
  });

  it('returns only top_n results', async () => {
    const { json } = await postJson<CohereRerank>(`${server.url()}/v2/rerank`, {
      model: 'gamma-reranker-v2-m3',
      query,
      documents,
      top_n: 2,
    });
    expect(json.results.map((result) => result.index)).toEqual([1, 3]);
  });

  it('an unknown model is the 404 envelope', async () => {
    const { status } = await postJson(`${server.url()}/v2/rerank`, {
      model: 'nope',
      query,
      documents,
    });
    expect(status).toBe(404);
  });
});

describe('POST /rerank (TEI)', () => {
  it('answers a bare array of {index, score} sorted by score, with text only on return_text', async () => {
    const { status, json } = await postJson<Array<{ index: number; score: number; text?: string }>>(
      `${server.url()}/rerank`,
      { query, texts: documents },
    );
    expect(status).toBe(200);
    expect(Array.isArray(json)).toBe(true);
    expect(json[0]?.index).toBe(1);
    expect(json.every((item) => item.text === undefined && item.score > 0 && item.score < 1)).toBe(
      true,
    );
    const withText = await postJson<Array<{ index: number; text?: string }>>(
      `${server.url()}/rerank`,
      { query, texts: documents, return_text: true },
    );
    expect(withText.json[0]?.text).toBe(documents[1]);
  });

  it('raw_scores returns the unsquashed scores in the same order', async () => {
    const squashed = await postJson<Array<{ index: number; score: number }>>(
      `${server.url()}/rerank`,
      { query, texts: documents },
    );
    const raw = await postJson<Array<{ index: number; score: number }>>(`${server.url()}/rerank`, {
      query,
      texts: documents,
      raw_scores: true,
    });
    expect(raw.json.map((item) => item.index)).toEqual(squashed.json.map((item) => item.index));
    expect(raw.json[0]?.score).toBeGreaterThan(1);
  });

  it("refuses empty texts with TEI's own error body", async () => {
    const { status, json } = await postJson(`${server.url()}/rerank`, { query, texts: [] });
    expect(status).toBe(400);
    expect(json).toEqual({ error: expect.any(String), error_type: 'Empty' });
  });
});
