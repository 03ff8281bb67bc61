import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractClient, readSse } from '@infergate/testkit';
import { startNodeGateway, testApiKey, type NodeGateway } from './start-node-gateway.js';

describe('the request log', () => {
  const lines: Record<string, unknown>[] = [];
  let raw = '';
  let gateway: NodeGateway;
  let client: ContractClient;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        raw += chunk.toString('utf8');
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    gateway = await startNodeGateway({}, { logger: pino({ level: 'trace' }, sink) });
    client = new ContractClient(gateway);
  });

  afterAll(async () => {
    await gateway?.close();
  });

  const linesFor = (requestId: string): Record<string, unknown>[] =>
    lines.filter((line) => line.msg === 'request' && line.requestId === requestId);

  it('writes one line per request with route, model, status, duration, upstream and tokens; never the prompt or a key', async () => {
    const prompt = 'canary-prompt-7f3a do not log me';
    const reply = await client.postJson(
      '/v1/chat/completions',
      { model: 'general-std', messages: [{ role: 'user', content: prompt }] },
      { headers: { 'x-request-id': 'log-json-1' } },
    );
    expect(reply.status).toBe(200);
    const streamed = await client.post(
      '/v1/chat/completions',
      { model: 'general-std', messages: [{ role: 'user', content: prompt }], stream: true },
      { headers: { 'x-request-id': 'log-stream-1' } },
    );
    await readSse(streamed);
    await client.postJson(
      '/v1/embeddings',
      { model: 'gamma-m3', input: prompt },
      {
        anonymous: true,
        headers: {
          authorization: 'Bearer ig-canary-wrong-key-123456',
          'x-request-id': 'log-401-1',
        },
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));

    const [json] = linesFor('log-json-1');
    expect(linesFor('log-json-1')).toHaveLength(1);
    expect(json).toMatchObject({
      level: 30,
      method: 'POST',
      route: '/v1/chat/completions',
      operationId: 'createChatCompletion',
      model: 'alpha36-35b-a3b-instruct',
      status: 200,
    });
    expect(typeof json?.durationMs).toBe('number');
    expect(typeof json?.upstream).toBe('string');
    expect(typeof json?.inputTokens).toBe('number');
    expect(typeof json?.outputTokens).toBe('number');
    expect(linesFor('log-stream-1')).toHaveLength(1);
    expect(linesFor('log-stream-1')[0]).toMatchObject({
      status: 200,
      model: 'alpha36-35b-a3b-instruct',
    });
    expect(linesFor('log-401-1')[0]).toMatchObject({ status: 401 });

    expect(raw).not.toContain('canary-prompt-7f3a');
    expect(raw).not.toContain(testApiKey);
    expect(raw).not.toContain('ig-canary-wrong');
  });

  it('logs a client that went away as 499', async () => {
    const controller = new AbortController();
    const response = await client.post(
      '/v1/chat/completions',
      { model: 'general-std', messages: [{ role: 'user', content: 'x' }], stream: true },
      { signal: controller.signal, headers: { 'x-request-id': 'log-499-1' } },
    );
    controller.abort();
    await response.body?.cancel().catch(() => undefined);
    await expect.poll(() => linesFor('log-499-1').length, { timeout: 5_000 }).toBe(1);
    // The stream may have finished before the abort landed; either way exactly one line, 200 or 499.
    expect([200, 499]).toContain(linesFor('log-499-1')[0]?.status);
  });
});
