import {
  startScriptedUpstream,
  upstreamsServingEverything,
  type ScriptedUpstream,
} from '@infergate/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricValue, readMetrics } from './read-metrics.js';
import { startNodeGateway, testMetricsKey, type NodeGateway } from './start-node-gateway.js';

/*
 * A request ends once, whichever way its stream ends: read to the end, cancelled by the client
 * mid-way, or cut by an upstream reset. Seen from outside: the admission cap (1) admits the next
 * request, the key's concurrency slot (1) is free again and its tokens are settled (the next answer's
 * x-ratelimit-remaining-tokens), /metrics counts the request exactly once and no stream stays open.
 */

const model = 'alpha36-35b-a3b-instruct';
// Reserved per request while it runs (a quarter of the body's characters plus max_tokens): a stream
// left unsettled would keep all of it, a settled one is charged what it used.
const maxTokens = 2_000;
const keys = {
  read: 'ig-finaliser-read-0123456789abcdef',
  cancel: 'ig-finaliser-cancel-0123456789abcd',
  reset: 'ig-finaliser-reset-0123456789abcde',
};

let upstream: ScriptedUpstream;
let gateway: NodeGateway;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  gateway = await startNodeGateway({
    upstreams: upstreamsServingEverything(upstream.url),
    limits: { max_concurrent_requests: 1 },
    keys: Object.entries(keys).map(([name, key]) => ({
      key,
      name,
      limits: { tokens_per_minute: 1_000_000, concurrent_requests: 1 },
    })),
  });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

function chat(
  key: string,
  script: string,
  stream: boolean,
  signal?: AbortSignal,
): Promise<Response> {
  const body = {
    model,
    messages: [{ role: 'user', content: 'Count slowly.' }],
    max_tokens: maxTokens,
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  };
  return fetch(`${gateway.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    // The gateway forwards the request id: the scripted upstream runs this script for this request.
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...upstream.scripted(script).headers,
    },
    body: JSON.stringify(body),
    ...(signal === undefined ? {} : { signal }),
  });
}

/** A short JSON answer of the key: its remaining tokens (its own reservation taken) and the usage it reports. */
async function probe(key: string): Promise<{ remaining: number; used: number }> {
  const response = await chat(key, 'ok:2:0', false);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { usage: { total_tokens: number } };
  return {
    remaining: Number(response.headers.get('x-ratelimit-remaining-tokens')),
    used: body.usage.total_tokens,
  };
}

/** Chat requests of a key counted by /metrics, of one status or all. */
function requestsCounted(
  samples: Awaited<ReturnType<typeof readMetrics>>,
  key: string,
  status?: string,
): number {
  return samples
    .filter(
      (sample) =>
        sample.name === 'infergate_requests_total' &&
        sample.labels.route === 'createChatCompletion' &&
        sample.labels.key === key &&
        (status === undefined || sample.labels.status === status),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}

/** Waits until no stream is open (the server sees a client's cancel a moment after the client). */
async function streamsClosed(): Promise<Awaited<ReturnType<typeof readMetrics>>> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const samples = await readMetrics(gateway.baseUrl, testMetricsKey);
    if (metricValue(samples, 'infergate_active_streams') === 0 || Date.now() > deadline)
      return samples;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs one stream between two probes of its key: the tokens the stream was charged, and the metrics after. */
async function settledBy(name: keyof typeof keys, runStream: () => Promise<void>) {
  const key = keys[name];
  const first = await probe(key);
  const before = await readMetrics(gateway.baseUrl, testMetricsKey);
  await runStream();
  const after = await streamsClosed();
  // Admitted again at once: the admission cap of 1 and the key's one concurrent request are free.
  const second = await probe(key);
  return { charged: first.remaining - second.remaining - first.used, before, after };
}

describe('the end of a streamed request, through the node-server', () => {
  it('a stream read to the end: slot freed, its reported usage charged, counted once as 200', async () => {
    let usage = 0;
    const { charged, before, after } = await settledBy('read', async () => {
      const response = await chat(keys.read, 'ok:6:0', true);
      expect(response.status).toBe(200);
      const text = await response.text();
      const last = text
        .split('\n')
        .filter((line) => line.startsWith('data: {'))
        .map((line) => JSON.parse(line.slice(6)) as { usage?: { total_tokens: number } | null })
        .findLast((chunk) => chunk.usage);
      usage = last?.usage?.total_tokens ?? -1;
    });
    expect(usage).toBeGreaterThan(0);
    expect(charged).toBe(usage);
    expect(requestsCounted(after, 'read') - requestsCounted(before, 'read')).toBe(1);
    expect(requestsCounted(after, 'read', '200') - requestsCounted(before, 'read', '200')).toBe(1);
    expect(metricValue(after, 'infergate_active_streams')).toBe(0);
  });

  it('a stream the client cancels mid-way: slot freed, charged what it sent, counted once as 499', async () => {
    const { charged, before, after } = await settledBy('cancel', async () => {
      const controller = new AbortController();
      const response = await chat(keys.cancel, 'ok:200:50', true, controller.signal);
      expect(response.status).toBe(200);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      await reader.read();
      controller.abort();
      await reader.closed.catch(() => undefined);
    });
    // The prompt estimate plus the events sent, far below the reservation an unsettled stream would keep.
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThan(maxTokens / 2);
    expect(requestsCounted(after, 'cancel') - requestsCounted(before, 'cancel')).toBe(1);
    expect(requestsCounted(after, 'cancel', '499') - requestsCounted(before, 'cancel', '499')).toBe(
      1,
    );
    expect(metricValue(after, 'infergate_active_streams')).toBe(0);
  });

  it('a stream whose upstream resets: slot freed, tokens settled, counted once', async () => {
    const { charged, before, after } = await settledBy('reset', async () => {
      const response = await chat(keys.reset, 'reset-after:3', true);
      expect(response.status).toBe(200);
      // The gateway ends the stream in-protocol (an error event) or cuts it; either way it ends.
      await response.text().catch(() => '');
    });
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThan(maxTokens / 2);
    expect(requestsCounted(after, 'reset') - requestsCounted(before, 'reset')).toBe(1);
    expect(metricValue(after, 'infergate_active_streams')).toBe(0);
  });
});
