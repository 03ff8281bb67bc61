import { defaultCatalogue } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import { useTestServer } from './test-server.js';

const server = useTestServer({ models: { 'extra-model': { contextWindow: 4096 } } });

interface ModelList {
  object: string;
  data: Array<{
    id: string;
    object: string;
    created: number;
    owned_by: string;
    max_model_len: number | null;
    permission: unknown[];
  }>;
}

describe('GET /v1/models, /health and unrouted paths', () => {
  it('lists every catalogue model and the extra ones as vLLM ModelCards with the context window', async () => {
    const response = await fetch(`${server.url()}/v1/models`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as ModelList;
    expect(body.object).toBe('list');
    const ids = body.data.map((model) => model.id);
    expect(ids).toEqual(expect.arrayContaining([...defaultCatalogue.models.keys(), 'extra-model']));
    expect(ids).not.toContain('coding-max');
    for (const card of body.data) {
      expect(card).toMatchObject({ object: 'model', owned_by: 'vllm' });
      expect(card.max_model_len).toBe(
        card.id === 'extra-model'
          ? 4096
          : (defaultCatalogue.models.get(card.id)?.contextWindow ?? null),
      );
      expect(card.permission).toHaveLength(1);
    }
  });

  it('GET /v1/models/{id} returns one card; an unknown id is the 404 envelope', async () => {
    const known = await fetch(`${server.url()}/v1/models/gamma-m3`);
    expect(((await known.json()) as { id: string }).id).toBe('gamma-m3');
    const unknown = await fetch(`${server.url()}/v1/models/nope`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { type: string } }).error.type).toBe(
      'NotFoundError',
    );
  });

  it('GET /health is an empty 200', async () => {
    const response = await fetch(`${server.url()}/health`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it("answers unrouted paths and wrong methods with FastAPI's bodies", async () => {
    const missing = await fetch(`${server.url()}/v1/nothing-here`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: 'Not Found' });
    const wrongMethod = await fetch(`${server.url()}/v1/chat/completions`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  it('serves the extra model on chat completions', async () => {
    const response = await fetch(`${server.url()}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'extra-model', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.status).toBe(200);
  });
});
