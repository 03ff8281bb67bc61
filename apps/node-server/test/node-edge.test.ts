import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '@infergate/core';
import {
  ContractClient,
  startScriptedUpstream,
  upstreamsServingEverything,
  type ScriptedUpstream,
} from '@infergate/testkit';
import { toFastifyPath } from '../src/to-fastify-path.js';
import { parseRawResponse, rawSocketExchange } from './raw-socket-exchange.js';
import { startNodeGateway, testApiKey, type NodeGateway } from './start-node-gateway.js';

const headersLimitMs = 500;
const requestLimitMs = 1_000;

function expectEnvelope(body: unknown): void {
  const error = (body as { error?: Record<string, unknown> }).error;
  expect(typeof error?.message).toBe('string');
  expect(Object.keys(error ?? {}).sort()).toEqual(['code', 'message', 'param', 'type']);
}

describe('node-server specifics', () => {
  let gateway: NodeGateway;

  beforeAll(async () => {
    gateway = await startNodeGateway({
      timeouts: { inbound_headers_ms: headersLimitMs, inbound_request_ms: requestLimitMs },
    });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it("registers exactly core's route table", () => {
    for (const route of routeTable)
      expect(
        gateway.server.app.hasRoute({ method: route.method, url: toFastifyPath(route.path) }),
        `${route.method} ${route.path}`,
      ).toBe(true);
    // No HEAD twins of GET routes: the table is all there is.
    expect(gateway.server.app.hasRoute({ method: 'HEAD', url: '/v1/models' })).toBe(false);
  });

  it('answers 408 in the envelope and closes a connection whose body is too slow (whole-request timeout)', async () => {
    const head = `POST /v1/embeddings HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${testApiKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const exchange = await rawSocketExchange(
      gateway.baseUrl,
      [head, '{"mo', 'del"', ':"gam', 'ma-m3"'],
      300,
    );
    const response = parseRawResponse(exchange.text);
    expect(response.status).toBe(408);
    expectEnvelope(response.body);
    expect(exchange.closedAfterMs).toBeLessThan(requestLimitMs + 5_000);
  });

  it('answers 408 and closes a connection whose headers are too slow (slowloris)', async () => {
    const exchange = await rawSocketExchange(
      gateway.baseUrl,
      [
        'GET /v1/models HTTP/1.1\r\n',
        'Host: test\r\n',
        'X-Slow-1: a\r\n',
        'X-Slow-2: b\r\n',
        'X-Slow-3: c\r\n',
        'X-Slow-4: d\r\n',
      ],
      250,
    );
    const response = parseRawResponse(exchange.text);
    expect(response.status).toBe(408);
    expect(exchange.closedAfterMs).toBeLessThan(headersLimitMs + 5_000);
  });

  it('answers 431 for oversized headers and 400 for Content-Length with Transfer-Encoding', async () => {
    const big = await rawSocketExchange(gateway.baseUrl, [
      `GET /v1/models HTTP/1.1\r\nHost: test\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
    ]);
    expect(parseRawResponse(big.text).status).toBe(431);
    expectEnvelope(parseRawResponse(big.text).body);
    const smuggled = await rawSocketExchange(gateway.baseUrl, [
      'POST /tokenize HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ]);
    expect(parseRawResponse(smuggled.text).status).toBe(400);
    const client = new ContractClient(gateway);
    expect((await client.request('GET', '/healthz', { anonymous: true })).status).toBe(200);
  });
});

describe('graceful shutdown', () => {
  let upstream: ScriptedUpstream;

  beforeAll(async () => {
    upstream = await startScriptedUpstream();
  });

  afterAll(async () => {
    await upstream?.close();
  });

  it('lets a running stream finish, refuses new connections, then closes', async () => {
    const gateway = await startNodeGateway({
      upstreams: upstreamsServingEverything(upstream.url),
      timeouts: { shutdown_grace_ms: 10_000 },
    });
    upstream.setDefaultScript('ok:10:50');
    const client = new ContractClient(gateway);
    const response = await client.post('/v1/chat/completions', {
      model: 'alpha36-35b-a3b-instruct',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    expect(response.status).toBe(200);
    const closing = gateway.server.close();
    const text = await response.text();
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    await closing;
    await expect(fetch(`${gateway.baseUrl}/healthz`)).rejects.toThrow();
  });

  it('ends streams still running at the end of the grace period with the terminal error, and the upstream sees the abort', async () => {
    const gateway = await startNodeGateway({ upstreams: upstreamsServingEverything(upstream.url) });
    upstream.setDefaultScript('ok:400:50');
    upstream.clear();
    const client = new ContractClient(gateway);
    const response = await client.post('/v1/chat/completions', {
      model: 'alpha36-35b-a3b-instruct',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    expect(response.status).toBe(200);
    const startedAt = Date.now();
    await gateway.server.close(200);
    expect(Date.now() - startedAt).toBeLessThan(10_000);
    // fault-matrix row 24: an in-protocol end (error event, then [DONE]), never a clean one.
    const text = await response.text();
    expect(text).toContain('"error"');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const seen = await upstream.waitForRequest(
      (request) => request.path === '/v1/chat/completions',
    );
    await seen.closed;
    expect(seen.aborted).toBe(true);
  });
});
