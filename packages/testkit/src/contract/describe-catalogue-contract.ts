import { describe, expect, it } from 'vitest';
import { asArray, asRecord, type ContractClient } from './contract-client.js';
import { specCatalogueIds } from './spec-catalogue.js';

export function describeCatalogueContract(client: () => ContractClient): void {
  describe('GET /v1/models, /pricing, /healthz, /readyz, /upstreamz', () => {
    it('lists every catalogue model in the OpenAI list shape', async () => {
      const reply = await client().getJson('/v1/models');
      expect(reply.status, reply.text).toBe(200);
      const body = asRecord(reply.json);
      expect(body.object).toBe('list');
      const data = asArray(body.data).map(asRecord);
      for (const model of data) {
        expect(typeof model.id).toBe('string');
        expect(model.object).toBe('model');
        expect(Number.isInteger(model.created)).toBe(true);
        expect(typeof model.owned_by).toBe('string');
      }
      expect(data.map((model) => model.id)).toEqual(expect.arrayContaining([...specCatalogueIds]));
    });

    it('answers /pricing with JSON', async () => {
      const reply = await client().getJson('/pricing');
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      asRecord(reply.json);
    });

    it('answers the health checks without a key', async () => {
      expect((await client().request('GET', '/healthz', { anonymous: true })).status).toBe(200);
      expect((await client().request('GET', '/readyz', { anonymous: true })).status).toBe(200);
    });

    it('keeps /upstreamz for operator keys: 401 without a key, 403 operator_key_required for an API key', async () => {
      expect((await client().request('GET', '/upstreamz', { anonymous: true })).status).toBe(401);
      const refused = await client().getJson('/upstreamz');
      expect(refused.status, refused.text).toBe(403);
      expect(asRecord(asRecord(refused.json).error).code).toBe('operator_key_required');
    });
  });
}
