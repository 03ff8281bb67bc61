import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecordingUpstream, type RecordingUpstream } from '@infergate/testkit';
import { upstreamsServingEverything } from '@infergate/testkit';
import { dripChatHandler } from './drip-chat-handler.js';
import { startGatewayProcess, type GatewayProcess } from './start-gateway-process.js';
import { startLimitedReplicas, type LimitedReplica } from './start-limited-replicas.js';
import { startRedisServer, type RedisServer } from './start-redis-server.js';

/*
 * A replica killed mid-stream. The doomed replica is the built CLI in its own process, and
 * dies by SIGKILL: nothing runs after it. The other replicas go on, and the concurrency slots the dead
 * replica held are freed by their expiry (redis.slot_ttl_ms), since nothing is left to release them.
 */

// Long enough that the checks right after the kill run while the dead replica's slots still hold on a
// loaded machine; the test then waits for their expiry.
const slotTtlMs = 6_000;
const keys = [
  { key: 'key-conc-0123456789', name: 'conc', limits: { concurrent_requests: 2 } },
  // Also reads the process's /metrics, which only operator keys open.
  {
    key: 'key-other-012345678',
    name: 'other',
    limits: { requests_per_minute: 1000 },
    operator: true,
  },
];

let redis: RedisServer;
let upstream: RecordingUpstream;
let replicas: LimitedReplica[];
let doomed: GatewayProcess;

beforeAll(async () => {
  redis = await startRedisServer();
  // An endless stream: one token every 50 ms until the gateway goes away.
  upstream = await startRecordingUpstream({
    handlers: {
      'POST /v1/chat/completions': dripChatHandler({
        tokens: 100_000,
        promptTokens: 10,
        delayMs: 50,
      }),
    },
  });
  // A budget no loaded machine reaches: a local fallback would admit from a local share and hide the sharing.
  const shared = { url: redis.url, replicas: 3, slot_ttl_ms: slotTtlMs, budget_ms: 5_000 };
  replicas = await startLimitedReplicas({
    upstreamUrl: upstream.url,
    keys,
    redis: shared,
    count: 2,
  });
  doomed = await startGatewayProcess({
    upstreams: upstreamsServingEverything(upstream.url),
    keys,
    timeouts: { shutdown_grace_ms: 500, drain_delay_ms: 0 },
    redis: shared,
  });
});

afterAll(async () => {
  await Promise.allSettled((replicas ?? []).map((replica) => replica.server.close(200)));
  await doomed?.stop();
  await upstream?.close();
  await redis?.stop();
});

function request(baseUrl: string, key: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function embedStatus(baseUrl: string, key: string): Promise<number> {
  const response = await request(baseUrl, key, '/v1/embeddings', {
    model: 'alpha3-vl-embedding-8b',
    input: 'hello',
  });
  await response.arrayBuffer();
  return response.status;
}

/** Waits (generously) until a replica answers through Redis: a probe that does not fall back. */
async function waitUntilShared(baseUrl: string, fallbacks: () => Promise<number>): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const before = await fallbacks();
    await embedStatus(baseUrl, 'key-other-012345678');
    if ((await fallbacks()) === before) return;
    if (Date.now() > deadline) throw new Error(`replica ${baseUrl} never reached Redis`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** infergate_limiter_fallback_total from the process's /metrics. */
async function processFallbacks(baseUrl: string): Promise<number> {
  const response = await fetch(`${baseUrl}/metrics`, {
    headers: { authorization: 'Bearer key-other-012345678' },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}: ${text}`);
  return Number(/^infergate_limiter_fallback_total(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? 0);
}

describe('a replica killed mid-stream', () => {
  it('leaves the others serving, and its concurrency slots expire within redis.slot_ttl_ms', async () => {
    await Promise.all(
      replicas.map((replica) => waitUntilShared(replica.baseUrl, async () => replica.fallbacks())),
    );
    await waitUntilShared(doomed.baseUrl, () => processFallbacks(doomed.baseUrl));
    const [survivor, third] = replicas as [LimitedReplica, LimitedReplica];

    // Two streams on the doomed replica hold both slots of the key; the first bytes have arrived.
    const streams = await Promise.all(
      [0, 1].map(async () => {
        const response = await request(
          doomed.baseUrl,
          'key-conc-0123456789',
          '/v1/chat/completions',
          {
            model: 'alpha36-35b-a3b-instruct',
            messages: [{ role: 'user', content: 'go on' }],
            stream: true,
          },
        );
        expect(response.status).toBe(200);
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        await reader.read();
        return reader;
      }),
    );
    // The slots are shared: another replica refuses a third request of the key.
    expect(await embedStatus(survivor.baseUrl, 'key-conc-0123456789')).toBe(429);

    // The kill: no shutdown, no release of anything; the kernel closes its sockets.
    doomed.child.kill('SIGKILL');
    const killedAt = Date.now();
    await Promise.all(
      streams.map((reader) =>
        reader.read().then(
          () => reader.cancel(),
          () => undefined,
        ),
      ),
    );

    // The slots are still held by the dead replica, but the other replicas go on serving.
    expect(await embedStatus(survivor.baseUrl, 'key-conc-0123456789')).toBe(429);
    expect(await embedStatus(survivor.baseUrl, 'key-other-012345678')).toBe(200);
    expect(await embedStatus(third.baseUrl, 'key-other-012345678')).toBe(200);

    // Freed by expiry: the key is admitted again within the slot TTL (plus a generous margin for a loaded machine).
    let freedAfterMs: number | undefined;
    while (Date.now() - killedAt < slotTtlMs + 5_000) {
      if ((await embedStatus(third.baseUrl, 'key-conc-0123456789')) === 200) {
        freedAfterMs = Date.now() - killedAt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    console.info(
      `replica SIGKILLed holding 2 slots: the key admitted again ${freedAfterMs ?? 'never'} ms after the kill (slot TTL ${slotTtlMs} ms)`,
    );
    expect(freedAfterMs).toBeDefined();
    expect(freedAfterMs).toBeLessThanOrEqual(slotTtlMs + 5_000);
  });
});
