import { describe, expect, it } from 'vitest';
import { rawHttpRequest } from '../raw-http-request.js';
import { toJsonReply, type ContractClient, type JsonReply } from './contract-client.js';
import { expectCompatError, expectNativeError } from './expect-envelopes.js';

// docs/design.md "Limits and timeouts": the defaults the suite's gateways run with.
const jsonBodyLimit = 2 * 1024 * 1024;
const imageBodyLimit = 100 * 1024 * 1024;

function rawReply(response: {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}): JsonReply {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  let json: unknown;
  try {
    json = JSON.parse(response.body) as unknown;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers, json, text: response.body };
}

function* chunksOf(total: number, size: number): Generator<Uint8Array> {
  const piece = new Uint8Array(size).fill(0x20);
  for (let sent = 0; sent < total; sent += size) yield piece;
}

const embedBody = { model: 'gamma-m3', input: 'hello' };

export function describeEdgeContract(client: () => ContractClient): void {
  describe('authentication', () => {
    it('answers 401 with WWW-Authenticate: Bearer for a missing, wrong or non-Bearer key, on every kind of route', async () => {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer wrong-key' },
        { authorization: `Basic ${Buffer.from('user:pass').toString('base64')}` },
        { authorization: 'Bearer' },
      ];
      for (const headers of attempts) {
        const native = await toJsonReply(
          await client().post('/v1/embeddings', embedBody, { anonymous: true, headers }),
        );
        expectNativeError(native, 401);
        expect(native.headers.get('www-authenticate')).toMatch(/^Bearer/);
        const models = await toJsonReply(
          await client().request('GET', '/v1/models', { anonymous: true, headers }),
        );
        expectNativeError(models, 401);
        const compat = await toJsonReply(
          await client().post(
            '/compat/v2/rerank',
            { model: 'gamma-reranker-v2-m3', query: 'q', documents: ['d'] },
            { anonymous: true, headers },
          ),
        );
        expectCompatError(compat, 401);
        expect(compat.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
    });

    it('never echoes the key it was given', async () => {
      const canary = 'ig-canary-0123456789abcdef0123456789';
      const reply = await toJsonReply(
        await client().post('/v1/embeddings', embedBody, {
          anonymous: true,
          headers: { authorization: `Bearer ${canary}` },
        }),
      );
      expect(reply.text).not.toContain(canary.slice(0, 12));
    });
  });

  describe('x-request-id', () => {
    it('echoes a valid incoming id and generates one otherwise, on success and on errors', async () => {
      const echoed = await client().request('GET', '/v1/models', {
        headers: { 'x-request-id': 'contract-test.id:42' },
      });
      expect(echoed.headers.get('x-request-id')).toBe('contract-test.id:42');
      await echoed.body?.cancel();
      const invalid = await client().request('GET', '/v1/models', {
        headers: { 'x-request-id': 'bad id\twith spaces' },
      });
      const generated = invalid.headers.get('x-request-id');
      expect(generated).toBeTruthy();
      expect(generated).not.toContain(' ');
      await invalid.body?.cancel();
      const missing = await client().request('GET', '/v1/no-such-route');
      expect(missing.headers.get('x-request-id')).toBeTruthy();
      await missing.body?.cancel();
      const unauthorized = await client().request('GET', '/v1/models', {
        anonymous: true,
        headers: { 'x-request-id': 'unauthorized-1' },
      });
      expect(unauthorized.headers.get('x-request-id')).toBe('unauthorized-1');
      await unauthorized.body?.cancel();
    });
  });

  describe('request bodies', () => {
    it('answers 415 for a POST that is not application/json', async () => {
      const response = await fetch(client().url('/v1/embeddings'), {
        method: 'POST',
        headers: { ...client().headers(), 'content-type': 'text/plain' },
        body: JSON.stringify(embedBody),
      });
      expectNativeError(await toJsonReply(response), 415);
      const form = await fetch(client().url('/compat/v2/rerank'), {
        method: 'POST',
        headers: { ...client().headers(), 'content-type': 'application/x-www-form-urlencoded' },
        body: 'model=gamma-reranker-v2-m3',
      });
      expectCompatError(await toJsonReply(form), 415);
    });

    it('accepts application/json with a charset parameter', async () => {
      const response = await fetch(client().url('/tokenize'), {
        method: 'POST',
        headers: { ...client().headers(), 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ model: 'gamma-m3', prompt: 'hi' }),
      });
      expect(response.status).toBe(200);
      await response.body?.cancel();
    });

    it('answers 400 in the envelope for malformed JSON, an empty body and prototype poisoning', async () => {
      expectNativeError(
        await client().postJson('/v1/chat/completions', '{"model": "general-std", "messages": ['),
        400,
      );
      expectNativeError(await client().postJson('/v1/embeddings', ''), 400);
      expectNativeError(
        await client().postJson(
          '/v1/embeddings',
          '{"model":"gamma-m3","input":"x","__proto__":{"polluted":1}}',
        ),
        400,
      );
      expectCompatError(await client().postJson('/compat/v2/rerank', '{not json'), 400);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('answers 413 naming the limit when Content-Length is over it, without reading the body', async () => {
      const response = await rawHttpRequest(client().url('/v1/embeddings'), {
        method: 'POST',
        headers: { ...client().headers({}, true), 'content-length': String(jsonBodyLimit + 1) },
        chunks: chunksOf(jsonBodyLimit + 1, 64 * 1024),
      });
      const error = expectNativeError(rawReply(response), 413);
      expect(String(error.message)).toContain(String(jsonBodyLimit));
      const image = await rawHttpRequest(client().url('/v1/chat/completions'), {
        method: 'POST',
        headers: { ...client().headers({}, true), 'content-length': String(imageBodyLimit + 1) },
        chunks: [],
      });
      expect(String(expectNativeError(rawReply(image), 413).message)).toContain(
        String(imageBodyLimit),
      );
    });

    it('cuts a chunked body at the limit and answers 413', async () => {
      const total = 64 * 1024 * 1024;
      const response = await rawHttpRequest(client().url('/v1/embeddings'), {
        method: 'POST',
        headers: client().headers({}, true),
        chunks: chunksOf(total, 64 * 1024),
      });
      expectNativeError(rawReply(response), 413);
      // The answer came while the client was still sending: the gateway stopped reading near the limit.
      expect(response.bytesSent).toBeLessThan(total);
      const compat = await rawHttpRequest(client().url('/compat/v2/rerank'), {
        method: 'POST',
        headers: client().headers({}, true),
        chunks: chunksOf(4 * jsonBodyLimit, 64 * 1024),
      });
      expectCompatError(rawReply(compat), 413);
    });
  });

  describe('unknown routes and methods', () => {
    it('answers 404 in the envelope of the path', async () => {
      expectNativeError(await client().getJson('/v1/no-such-route'), 404);
      expectNativeError(await client().getJson('/nothing-here'), 404);
      expectCompatError(await client().getJson('/compat/v2/no-such-route'), 404);
    });

    it('answers 405 with Allow for a known path with the wrong method', async () => {
      const reply = await client().getJson('/v1/embeddings');
      expectNativeError(reply, 405);
      expect(reply.headers.get('allow')).toContain('POST');
      const tokenize = await toJsonReply(await client().request('PUT', '/tokenize'));
      expectNativeError(tokenize, 405);
      expect(tokenize.headers.get('allow')).toContain('POST');
      const compat = await client().getJson('/compat/v2/embed');
      expectCompatError(compat, 405);
      expect(compat.headers.get('allow')).toContain('POST');
    });
  });

  describe('stored-data and master-only endpoints', () => {
    it('answers 404 unsupported_endpoint for every stored-data endpoint of the spec', async () => {
      const calls: [string, string][] = [
        ['GET', '/v1/responses/resp_123'],
        ['DELETE', '/v1/responses/resp_123'],
        ['GET', '/v1/responses/resp_123/input_items'],
        ['POST', '/v1/responses/resp_123/cancel'],
        ['POST', '/v1/responses/compact'],
        ['POST', '/v1/responses/input_tokens'],
        ['GET', '/v1/chat/completions/chatcmpl-1'],
        ['POST', '/v1/chat/completions/chatcmpl-1'],
        ['DELETE', '/v1/chat/completions/chatcmpl-1'],
        ['GET', '/v1/chat/completions'],
      ];
      for (const [method, path] of calls) {
        const response =
          method === 'POST' ? await client().post(path, {}) : await client().request(method, path);
        const error = expectNativeError(await toJsonReply(response), 404, {
          code: 'unsupported_endpoint',
        });
        expect(String(error.message)).toMatch(/stores no data/);
      }
    });

    it('answers 404 use_master_endpoint for the master-only endpoints', async () => {
      const calls: [string, string][] = [
        ['POST', '/document'],
        ['GET', '/usage'],
        ['GET', '/usage/history'],
      ];
      for (const [method, path] of calls) {
        const response =
          method === 'POST' ? await client().post(path, {}) : await client().request(method, path);
        expectNativeError(await toJsonReply(response), 404, { code: 'use_master_endpoint' });
      }
    });

    it('still needs a key for them', async () => {
      expectNativeError(
        await toJsonReply(await client().request('GET', '/usage', { anonymous: true })),
        401,
      );
    });
  });
}
