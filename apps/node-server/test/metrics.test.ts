import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { readSse, startRecordingUpstream } from '@infergate/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricValue, readMetrics } from './read-metrics.js';
import {
  startNodeGateway,
  testApiKey,
  testMetricsKey,
  type NodeGateway,
} from './start-node-gateway.js';

const model = 'alpha36-35b-a3b-instruct';
let gateway: NodeGateway;
// The zero-config gateway's local backend, as resolveGatewayConfig names it for the openai protocol.
const localOpenai = 'local-backend-openai';

const scraperKey = 'metrics-scraper-key-0123456789';
const operatorKey = 'ig-operator-0123456789abcdef0123456789';
const restrictedKey = 'ig-restricted-0123456789abcdef01234567';

beforeAll(async () => {
  gateway = await startNodeGateway({
    metrics: { key: scraperKey },
    keys: [
      { key: operatorKey, name: 'ops', operator: true },
      { key: restrictedKey, name: 'team-r', models: [model] },
    ],
  });
});

afterAll(async () => {
  await gateway.close();
});

function chat(
  body: Record<string, unknown>,
  headers: Record<string, string> = {
    authorization: `Bearer ${testApiKey}`,
    'content-type': 'application/json',
  },
) {
  return fetch(`${gateway.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      model,
      messages: [{ role: 'user', content: 'Count to three.' }],
      max_tokens: 16,
      ...body,
    }),
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('GET /metrics on the node-server', () => {
  it('opens for operator keys and the metrics key only: any other key is 403 operator_key_required', async () => {
    expect((await fetch(`${gateway.baseUrl}/metrics`)).status).toBe(401);
    expect(
      (
        await fetch(`${gateway.baseUrl}/metrics`, {
          headers: { authorization: 'Bearer wrong-key' },
        })
      ).status,
    ).toBe(401);
    await expect(readMetrics(gateway.baseUrl, operatorKey)).resolves.toBeDefined();
    await expect(readMetrics(gateway.baseUrl, scraperKey)).resolves.toBeDefined();
    // An API key, even one limited to one model, no longer reads every tenant's key names.
    for (const key of [testApiKey, restrictedKey]) {
      const refused = await fetch(`${gateway.baseUrl}/metrics`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('x-request-id')).toBeTruthy();
      const body = (await refused.json()) as {
        error: { type: string; code: string; message: string };
      };
      expect(body.error).toMatchObject({ type: 'permission_error', code: 'operator_key_required' });
      expect(body.error.message).toContain('operator: true');
    }
    // The metrics key opens /metrics only; an operator key is an API key as well.
    expect(
      (
        await chat(
          {},
          { authorization: `Bearer ${scraperKey}`, 'content-type': 'application/json' },
        )
      ).status,
    ).toBe(401);
    expect(
      (
        await chat(
          {},
          { authorization: `Bearer ${operatorKey}`, 'content-type': 'application/json' },
        )
      ).status,
    ).toBe(200);
  });

  it('moves the request and token counters by exactly the requests sent', async () => {
    const before = await readMetrics(gateway.baseUrl, scraperKey);
    let inputTokens = 0;
    let outputTokens = 0;
    for (let index = 0; index < 3; index += 1) {
      const response = await chat({});
      expect(response.status).toBe(200);
      const body = (await response.json()) as {
        usage: { prompt_tokens: number; completion_tokens: number };
      };
      inputTokens += body.usage.prompt_tokens;
      outputTokens += body.usage.completion_tokens;
    }
    const after = await readMetrics(gateway.baseUrl, scraperKey);
    // The zero-config key comes from INFERGATE_API_KEYS without a name; the local backend serves the model.
    const requests = {
      route: 'createChatCompletion',
      model,
      status: '200',
      upstream: localOpenai,
      key: 'unnamed',
    };
    expect(
      metricValue(after, 'infergate_requests_total', requests) -
        metricValue(before, 'infergate_requests_total', requests),
    ).toBe(3);
    expect(
      metricValue(after, 'infergate_input_tokens_total', { model, key: 'unnamed' }) -
        metricValue(before, 'infergate_input_tokens_total', { model, key: 'unnamed' }),
    ).toBe(inputTokens);
    expect(
      metricValue(after, 'infergate_output_tokens_total', { model, key: 'unnamed' }) -
        metricValue(before, 'infergate_output_tokens_total', { model, key: 'unnamed' }),
    ).toBe(outputTokens);
    const latency = { route: 'createChatCompletion', model, upstream: localOpenai };
    expect(
      metricValue(after, 'infergate_request_duration_seconds_count', latency) -
        metricValue(before, 'infergate_request_duration_seconds_count', latency),
    ).toBe(3);
    expect(
      metricValue(after, 'infergate_time_to_first_byte_seconds_count', latency) -
        metricValue(before, 'infergate_time_to_first_byte_seconds_count', latency),
    ).toBe(3);
  });

  it('counts a stream once it ends, and no stream stays active', async () => {
    const before = await readMetrics(gateway.baseUrl, scraperKey);
    const response = await chat({ stream: true });
    expect(response.status).toBe(200);
    await readSse(response);
    const after = await readMetrics(gateway.baseUrl, scraperKey);
    const requests = {
      route: 'createChatCompletion',
      model,
      status: '200',
      upstream: localOpenai,
      key: 'unnamed',
    };
    expect(
      metricValue(after, 'infergate_requests_total', requests) -
        metricValue(before, 'infergate_requests_total', requests),
    ).toBe(1);
    expect(metricValue(after, 'infergate_active_streams')).toBe(0);
  });

  it('counts refusals by reason: auth, validation, size', async () => {
    const before = await readMetrics(gateway.baseUrl, scraperKey);
    expect((await chat({}, { 'content-type': 'application/json' })).status).toBe(401);
    expect((await chat({ temperature: 7 })).status).toBe(400);
    expect(
      (await chat({}, { authorization: `Bearer ${testApiKey}`, 'content-type': 'text/plain' }))
        .status,
    ).toBe(415);
    const tooLarge = await fetch(`${gateway.baseUrl}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${testApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gamma-m3', input: 'x'.repeat(3 * 1024 * 1024) }),
    });
    expect(tooLarge.status).toBe(413);
    // A refusal answered before its body is counted when its lingering close ends, which can be just
    // after the client has read the 413.
    let after = before;
    const delta = (reason: string) =>
      metricValue(after, 'infergate_rejected_requests_total', { reason }) -
      metricValue(before, 'infergate_rejected_requests_total', { reason });
    await expect
      .poll(
        async () => {
          after = await readMetrics(gateway.baseUrl, scraperKey);
          return [delta('auth'), delta('validation'), delta('size'), delta('overload')];
        },
        { timeout: 5_000 },
      )
      .toEqual([1, 2, 1, 0]);
    const refusedBeforeDispatch = {
      route: 'createEmbedding',
      model: 'none',
      status: '413',
      upstream: 'none',
      key: 'none',
    };
    expect(
      metricValue(after, 'infergate_requests_total', refusedBeforeDispatch) -
        metricValue(before, 'infergate_requests_total', refusedBeforeDispatch),
    ).toBe(1);
  });

  it('keeps label values bounded: an unknown model and an unknown path are other', async () => {
    expect((await chat({ model: 'no-such-model-123' })).status).toBe(404);
    expect(
      (
        await fetch(`${gateway.baseUrl}/v1/no-such-path-456`, {
          headers: { authorization: `Bearer ${testApiKey}` },
        })
      ).status,
    ).toBe(404);
    const text = await (
      await fetch(`${gateway.baseUrl}/metrics`, {
        headers: { authorization: `Bearer ${scraperKey}` },
      })
    ).text();
    expect(text).not.toContain('no-such-model-123');
    expect(text).not.toContain('no-such-path-456');
    expect(text).toContain(
      'infergate_requests_total{route="other",model="none",status="404",upstream="none",key="none"}',
    );
  });

  it('counts upstream errors by kind', async () => {
    const port = await freePort();
    const refused = await startNodeGateway({
      upstreams: [
        {
          name: 'gone',
          url: `http://127.0.0.1:${port}`,
          protocol: 'openai',
          models: { [model]: 'served' },
        },
      ],
    });
    try {
      const response = await fetch(`${refused.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${testApiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(response.status).toBeGreaterThanOrEqual(502);
      const families = await readMetrics(refused.baseUrl, testMetricsKey);
      expect(
        metricValue(families, 'infergate_upstream_errors_total', {
          kind: 'refused',
          upstream: 'gone',
          model,
        }),
      ).toBeGreaterThanOrEqual(1);
    } finally {
      await refused.close();
    }
  });

  it('counts a stream the upstream cuts after its first event as a reset, and a stream read to its end as no error', async () => {
    const chunk = (content: string) =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'served', choices: [{ index: 0, delta: { content } }] })}\n\n`;
    const upstream = await startRecordingUpstream({
      handlers: {
        'POST /v1/chat/completions': (request, response) => {
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          if (JSON.stringify(request.body).includes('whole')) {
            response.end(`${chunk('whole')}data: [DONE]\n\n`);
            return;
          }
          response.write(chunk('cut'));
          setTimeout(() => response.socket?.destroy(), 50);
        },
      },
    });
    const cutting = await startNodeGateway({
      upstreams: [
        { name: 'cutter', url: upstream.url, protocol: 'openai', models: { [model]: 'served' } },
      ],
    });
    const stream = (content: string) =>
      fetch(`${cutting.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${testApiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content }] }),
      });
    try {
      const { events: whole } = await readSse(await stream('whole'));
      expect(whole.map((event) => event.data).at(-1)).toBe('[DONE]');
      const { events: cut } = await readSse(await stream('cut'));
      // The client is told in the stream (an error event, then [DONE]), and the upstream's fault is counted once.
      expect(cut.some((event) => event.data.includes('"error"'))).toBe(true);
      const families = await readMetrics(cutting.baseUrl, testMetricsKey);
      const where = { upstream: 'cutter', model };
      expect(
        metricValue(families, 'infergate_upstream_errors_total', { ...where, kind: 'reset' }),
      ).toBe(1);
      for (const kind of ['refused', 'timeout', 'too_large', 'protocol', 'unavailable', 'http_5xx'])
        expect(metricValue(families, 'infergate_upstream_errors_total', { ...where, kind })).toBe(
          0,
        );
    } finally {
      await cutting.close();
      await upstream.close();
    }
  });

  it('moves to a port of its own with metrics.port, and is off with metrics.enabled: false', async () => {
    const port = await freePort();
    const separate = await startNodeGateway({ metrics: { port } });
    try {
      const address = await separate.server.listenMetrics();
      expect(address).toBe(`http://127.0.0.1:${port}`);
      expect(
        (
          await fetch(`${separate.baseUrl}/metrics`, {
            headers: { authorization: `Bearer ${testApiKey}` },
          })
        ).status,
      ).toBe(404);
      // That port is for scrapers on a private network: no key needed; the main port still asks for one.
      const scraped = await fetch(`${address}/metrics`);
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await scraped.text()).toContain('# TYPE infergate_requests_total counter');
      expect(
        (
          await fetch(`${address}/v1/models`, {
            headers: { authorization: `Bearer ${testApiKey}` },
          })
        ).status,
      ).toBe(404);
      // The operator page shares that port, without a key too.
      const page = await fetch(`${address}/status`);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await page.text()).toContain('<script src="status/script.js">');
      expect((await fetch(`${address}/status/script.js`)).status).toBe(200);
      const status = (await (await fetch(`${address}/status.json`)).json()) as { object: string };
      expect(status.object).toBe('status');
    } finally {
      await separate.close();
    }
    const off = await startNodeGateway({ metrics: { enabled: false } });
    try {
      expect(
        (
          await fetch(`${off.baseUrl}/metrics`, {
            headers: { authorization: `Bearer ${testApiKey}` },
          })
        ).status,
      ).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('labels requests and upstream errors with the configured upstream and key names, bounded whatever clients send', async () => {
    const upstream = await startRecordingUpstream({
      handlers: {
        'POST /v1/embeddings': (_request, response) => {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end('{"error":{"message":"engine died"}}');
        },
      },
    });
    const namedKey = 'ig-named-0123456789abcdef0123456789ab';
    const labelled = await startNodeGateway({
      keys: [{ key: namedKey, name: 'team-a' }],
      upstreams: [
        {
          name: 'gpu-pool-a',
          url: upstream.url,
          protocol: 'openai',
          models: { [model]: 'served-chat', 'gamma-m3': 'served-embed' },
        },
      ],
    });
    const post = (path: string, key: string, body: Record<string, unknown>) =>
      fetch(`${labelled.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    try {
      expect(
        (
          await post('/v1/chat/completions', namedKey, {
            model,
            messages: [{ role: 'user', content: 'hi' }],
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await post('/v1/chat/completions', testApiKey, {
            model,
            messages: [{ role: 'user', content: 'hi' }],
          })
        ).status,
      ).toBe(200);
      expect(
        (await post('/v1/embeddings', namedKey, { model: 'gamma-m3', input: 'hi' })).status,
      ).toBe(502);
      expect(
        (
          await post('/v1/chat/completions', namedKey, {
            model: 'client-chosen-0',
            messages: [{ role: 'user', content: 'hi' }],
          })
        ).status,
      ).toBe(404);
      // A first scrape, so that the scrapes' own series exist before the count below.
      await readMetrics(labelled.baseUrl, testMetricsKey);
      const before = await readMetrics(labelled.baseUrl, testMetricsKey);
      const chat200 = {
        route: 'createChatCompletion',
        model,
        status: '200',
        upstream: 'gpu-pool-a',
      };
      expect(metricValue(before, 'infergate_requests_total', { ...chat200, key: 'team-a' })).toBe(
        1,
      );
      expect(metricValue(before, 'infergate_requests_total', { ...chat200, key: 'unnamed' })).toBe(
        1,
      );
      expect(
        metricValue(before, 'infergate_requests_total', {
          route: 'createEmbedding',
          model: 'gamma-m3',
          status: '502',
          upstream: 'gpu-pool-a',
          key: 'team-a',
        }),
      ).toBe(1);
      expect(
        metricValue(before, 'infergate_upstream_errors_total', {
          kind: 'http_5xx',
          upstream: 'gpu-pool-a',
          model: 'gamma-m3',
        }),
      ).toBe(1);
      expect(
        metricValue(before, 'infergate_input_tokens_total', { model, key: 'team-a' }),
      ).toBeGreaterThan(0);

      // Fifty more model names of the client's choosing add no series: they are all `other`.
      const seriesCount = (samples: Awaited<ReturnType<typeof readMetrics>>) =>
        samples.filter(
          (sample) =>
            sample.name.startsWith('infergate_requests_total') ||
            sample.name.startsWith('infergate_request_duration_seconds'),
        ).length;
      for (let index = 1; index <= 50; index += 1) {
        expect(
          (
            await post('/v1/chat/completions', namedKey, {
              model: `client-chosen-${index}`,
              messages: [{ role: 'user', content: 'hi' }],
            })
          ).status,
        ).toBe(404);
      }
      const after = await readMetrics(labelled.baseUrl, testMetricsKey);
      expect(seriesCount(after)).toBe(seriesCount(before));
      const unknownModel = {
        route: 'createChatCompletion',
        model: 'none',
        status: '404',
        upstream: 'none',
        key: 'team-a',
      };
      expect(
        metricValue(after, 'infergate_requests_total', unknownModel) -
          metricValue(before, 'infergate_requests_total', unknownModel),
      ).toBe(50);
      const text = await (
        await fetch(`${labelled.baseUrl}/metrics`, {
          headers: { authorization: `Bearer ${testMetricsKey}` },
        })
      ).text();
      expect(text).not.toContain('client-chosen');
      expect(text).not.toContain(namedKey);
      expect(text).not.toContain(upstream.url);
    } finally {
      await labelled.close();
      await upstream.close();
    }
  });
});
