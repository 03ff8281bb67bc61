import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractClient, startRecordingUpstream, type RecordingUpstream } from '@infergate/testkit';
import { startNodeGateway, testApiKey, type NodeGateway } from './start-node-gateway.js';

// Canaries: none of these may ever reach the log (the upstream's body, its key, its address).
const bodyCanary = 'canary-upstream-body-9c1e';
const upstreamKey = 'canary-upstream-key-4b7d';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a 5xx explains itself in one warn line', () => {
  const lines: Record<string, unknown>[] = [];
  let raw = '';
  let gateway: NodeGateway;
  let client: ContractClient;
  let upstream: RecordingUpstream;
  let stalled: RecordingUpstream;
  let gonePort: number;

  beforeAll(async () => {
    upstream = await startRecordingUpstream({
      handlers: {
        'POST /v1/chat/completions': (_request, response) => {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify({
              error: {
                message: `${bodyCanary} engine died`,
                type: 'InternalServerError',
                code: 500,
              },
            }),
          );
        },
        'POST /v1/embeddings': (_request, response) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify({
              data: [{ index: 0, embedding: bodyCanary }],
              usage: { prompt_tokens: 1 },
            }),
          );
        },
      },
    });
    // Takes the request and never answers: the headers limit below turns it into a 504.
    stalled = await startRecordingUpstream({
      handlers: { 'POST /v1/chat/completions': () => undefined },
    });
    gonePort = await closedPort();
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        raw += chunk.toString('utf8');
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    gateway = await startNodeGateway(
      {
        upstreams: [
          {
            name: 'gpu-pool-a',
            url: upstream.url,
            api_key: upstreamKey,
            protocol: 'openai',
            models: { 'alpha36-35b-a3b-instruct': 'served-chat', 'gamma-m3': 'served-embed' },
          },
          {
            name: 'gpu-pool-slow',
            url: stalled.url,
            protocol: 'openai',
            models: { 'alpha35-122b-a10b-instruct-general': 'served-slow' },
          },
          {
            name: 'gpu-pool-gone',
            url: `http://127.0.0.1:${gonePort}`,
            protocol: 'openai',
            models: { 'alpha36-35b-a3b-thinking-general': 'served-gone' },
          },
        ],
        timeouts: { headers_ms: 300, first_event_ms: 300, connect_ms: 300 },
      },
      { logger: pino({ level: 'info' }, sink) },
    );
    client = new ContractClient(gateway);
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
    await stalled?.close();
  });

  const lineFor = async (requestId: string): Promise<Record<string, unknown>> => {
    await expect
      .poll(
        () => lines.filter((line) => line.requestId === requestId && line.msg === 'request').length,
        { timeout: 5_000 },
      )
      .toBe(1);
    return lines.find((line) => line.requestId === requestId && line.msg === 'request') as Record<
      string,
      unknown
    >;
  };

  const chat = (model: string, requestId: string) =>
    client.postJson(
      '/v1/chat/completions',
      { model, messages: [{ role: 'user', content: 'hello' }] },
      { headers: { 'x-request-id': requestId } },
    );

  it('a bad status: 502 naming the upstream, model, attempts and the upstream status', async () => {
    const reply = await chat('alpha36-35b-a3b-instruct', 'fail-status-1');
    expect(reply.status).toBe(502);
    expect(await lineFor('fail-status-1')).toMatchObject({
      level: 40,
      route: '/v1/chat/completions',
      status: 502,
      model: 'alpha36-35b-a3b-instruct',
      upstream: 'gpu-pool-a',
      attempts: 1,
      cause: 'bad_status',
      upstreamStatus: 500,
    });
  });

  it('an unparseable body: 502 with the JSON path that failed', async () => {
    const reply = await client.postJson(
      '/v1/embeddings',
      { model: 'gamma-m3', input: 'hello' },
      { headers: { 'x-request-id': 'fail-body-1' } },
    );
    expect(reply.status).toBe(502);
    expect(await lineFor('fail-body-1')).toMatchObject({
      level: 40,
      route: '/v1/embeddings',
      status: 502,
      model: 'gamma-m3',
      upstream: 'gpu-pool-a',
      attempts: 1,
      cause: 'unparseable_body',
    });
    // The path of the field the canary string took the place of (the embedding vector), and why.
    expect((await lineFor('fail-body-1')).path).toMatch(/^data\[0\]\.embedding: expected an array/);
  });

  it('a stalled upstream: 504 with cause timeout', async () => {
    const reply = await chat('alpha35-122b-a10b-instruct-general', 'fail-stall-1');
    expect(reply.status).toBe(504);
    expect(await lineFor('fail-stall-1')).toMatchObject({
      level: 40,
      status: 504,
      model: 'alpha35-122b-a10b-instruct-general',
      upstream: 'gpu-pool-slow',
      attempts: 1,
      cause: 'timeout',
    });
  });

  it('a refused connection: 502 with cause refused', async () => {
    const reply = await chat('alpha36-35b-a3b-thinking-general', 'fail-refused-1');
    expect(reply.status).toBe(502);
    expect(await lineFor('fail-refused-1')).toMatchObject({
      level: 40,
      status: 502,
      model: 'alpha36-35b-a3b-thinking-general',
      upstream: 'gpu-pool-gone',
      cause: 'refused',
    });
  });

  it('a success stays an info line, and no line holds a body, a key or an upstream address', async () => {
    const reply = await client.getJson('/v1/models', { headers: { 'x-request-id': 'fine-1' } });
    expect(reply.status).toBe(200);
    expect(await lineFor('fine-1')).toMatchObject({ level: 30, status: 200 });
    expect(raw).toContain('gpu-pool-a');
    expect(raw).not.toContain(bodyCanary);
    expect(raw).not.toContain(upstreamKey);
    expect(raw).not.toContain(testApiKey);
    expect(raw).not.toContain(upstream.url);
    expect(raw).not.toContain(stalled.url);
    expect(raw).not.toContain(String(gonePort));
    const warnings = lines.filter((line) => line.level === 40);
    expect(warnings.map((line) => line.requestId).sort()).toEqual([
      'fail-body-1',
      'fail-refused-1',
      'fail-stall-1',
      'fail-status-1',
    ]);
  });
});
