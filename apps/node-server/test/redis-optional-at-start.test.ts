import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startRecordingUpstream,
  upstreamsServingEverything,
  type RecordingUpstream,
} from '@infergate/testkit';
import { freeLoopbackPort } from './free-loopback-port.js';
import { parsePrometheusText } from './parse-prometheus-text.js';
import { metricValue } from './read-metrics.js';
import { startGatewayProcess, type GatewayProcess } from './start-gateway-process.js';
import { startRedisServer, type RedisServer } from './start-redis-server.js';

/*
 * Redis out of reach at start no longer stops a replica (it crash-looped while Redis was
 * down or moving). The built CLI starts with nothing on its configured Redis port, serves with its
 * local share of each limit, says so once in its log (where Redis is, never its password) and in
 * infergate_redis_connected; then a real redis-server starts on that port and the replica counts
 * through it without a restart.
 */

const limitedKey = 'ig-redis-late-0123456789abcdef012345';
const operatorKey = 'ig-redis-late-ops-0123456789abcdef01';
const password = 'redis-password-never-logged';

let upstream: RecordingUpstream;
let redisPort: number;
let gateway: GatewayProcess;
let redis: RedisServer | undefined;

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  redisPort = await freeLoopbackPort();
  gateway = await startGatewayProcess(
    {
      upstreams: upstreamsServingEverything(upstream.url),
      keys: [
        { key: limitedKey, name: 'late', limits: { requests_per_minute: 6000 } },
        { key: operatorKey, name: 'ops', operator: true },
      ],
      redis: { url: `redis://:${password}@127.0.0.1:${redisPort}`, replicas: 2, budget_ms: 2_000 },
      timeouts: { shutdown_grace_ms: 500, drain_delay_ms: 0 },
    },
    undefined,
    { logLevel: 'info' },
  );
});

afterAll(async () => {
  await gateway?.stop();
  await redis?.stop();
  await upstream?.close();
});

async function embed(): Promise<number> {
  const response = await fetch(`${gateway.baseUrl}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${limitedKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gamma-m3', input: 'hello' }),
  });
  await response.arrayBuffer();
  return response.status;
}

async function metrics(): Promise<{ connected: number; fallbacks: number }> {
  const response = await fetch(`${gateway.baseUrl}/metrics`, {
    headers: { authorization: `Bearer ${operatorKey}` },
  });
  const samples = parsePrometheusText(await response.text());
  return {
    connected: metricValue(samples, 'infergate_redis_connected'),
    fallbacks: metricValue(samples, 'infergate_limiter_fallback_total'),
  };
}

/** The JSON log lines about key limits the process wrote so far. */
function limitLines(): { level: number; msg: string; redis?: string }[] {
  return gateway
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string; redis?: string })
    .filter((line) => line.msg.startsWith('key limits'));
}

describe('Redis out of reach at start', () => {
  it('starts and serves counting locally, says so once, then counts through Redis once it is up', async () => {
    // Started (startGatewayProcess saw the banner): serving with the local share of each limit.
    const before = await Promise.all(Array.from({ length: 5 }, () => embed()));
    expect(before).toEqual([200, 200, 200, 200, 200]);
    const away = await metrics();
    expect(away.connected).toBe(0);
    expect(away.fallbacks).toBeGreaterThanOrEqual(5);
    const warned = limitLines();
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ level: 40, redis: `127.0.0.1:${redisPort}` });
    expect(warned[0]?.msg).toContain(`Redis at 127.0.0.1:${redisPort} unreachable`);
    expect(gateway.stdout()).not.toContain(password);

    const redisStartedAt = performance.now();
    redis = await startRedisServer(redisPort);
    // ioredis retries at most every second: wait (generously) until requests stop falling back.
    let previous = await metrics();
    let joined = previous;
    let probes = 0;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
      probes += 1;
      expect(await embed()).toBe(200);
      joined = await metrics();
      if (joined.connected === 1 && joined.fallbacks === previous.fallbacks) break;
      previous = joined;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const joinedAfterMs = performance.now() - redisStartedAt;
    expect(joined.connected).toBe(1);

    const statuses = await Promise.all(Array.from({ length: 20 }, () => embed()));
    expect(statuses.every((status) => status === 200)).toBe(true);
    const shared = await metrics();
    expect(shared.fallbacks).toBe(joined.fallbacks);
    // The key's window is in Redis now: the replica counts through it.
    const client = new Redis(redis.url, { password });
    try {
      const window = await client.hgetall('infergate:limits:{late}:window');
      expect(Number(window.requests)).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }
    const lines = limitLines();
    expect(lines.map((line) => line.level)).toEqual([40, 30]);
    expect(gateway.stdout()).not.toContain(password);
    process.stdout.write(
      `redis late: served ${before.length} requests locally (${away.fallbacks} fallbacks), joined Redis ${Math.round(joinedAfterMs)} ms after it started (${probes} probes), then 20 requests with 0 fallbacks; log lines: ${lines.map((line) => line.msg).join(' | ')}\n`,
    );
  });
});
