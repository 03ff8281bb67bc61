import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startRecordingUpstream, type RecordingUpstream } from '@infergate/testkit';
import { startLimitedReplicas, type LimitedReplica } from './start-limited-replicas.js';
import { startRedisServer, type RedisServer } from './start-redis-server.js';

/*
 * Three replicas spend leases of a key's limits taken from one real redis-server. The bound
 * the README states (redis.accuracy_percent, 5 by default): the replicas together never admit more
 * than a limit, and refuse early by at most 5 % of it, or by one request per other replica when 5 %
 * of the limit divided among the replicas is under one. Every assertion counts; none times.
 */

const keys = [
  { key: 'key-small-01234567', name: 'small', limits: { requests_per_minute: 10 } },
  { key: 'key-moves-01234567', name: 'moves', limits: { requests_per_minute: 300 } },
  { key: 'key-wide-012345678', name: 'wide', limits: { requests_per_minute: 450 } },
  {
    key: 'key-busy-012345678',
    name: 'busy',
    limits: {
      requests_per_minute: 100_000,
      tokens_per_minute: 10_000_000,
      concurrent_requests: 1000,
    },
  },
  { key: 'key-probe-01234567', name: 'probe', limits: { requests_per_minute: 100_000 } },
];

let redis: RedisServer;
let observer: Redis;
let upstream: RecordingUpstream;
let replicas: LimitedReplica[];

beforeAll(async () => {
  redis = await startRedisServer();
  observer = new Redis(redis.url, { maxRetriesPerRequest: 0 });
  upstream = await startRecordingUpstream({});
  // A budget no loaded machine reaches: these tests count what Redis decides, never a local fallback.
  replicas = await startLimitedReplicas({
    upstreamUrl: upstream.url,
    keys,
    redis: { url: redis.url, replicas: 3, budget_ms: 5_000 },
    count: 3,
  });
  await Promise.all(replicas.map((replica) => waitUntilShared(replica)));
});

afterAll(async () => {
  await Promise.allSettled((replicas ?? []).map((replica) => replica.server.close(200)));
  observer?.disconnect();
  await upstream?.close();
  await redis?.stop();
});

async function embed(baseUrl: string, key: string): Promise<number> {
  const response = await fetch(`${baseUrl}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'alpha3-vl-embedding-8b', input: 'hello' }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Sends `count` requests, `parallel` at a time, the n-th to `targets[n % targets.length]`; statuses in order. */
async function spread(
  targets: readonly string[],
  key: string,
  count: number,
  parallel = 12,
): Promise<number[]> {
  const statuses: number[] = new Array<number>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const index = next;
        next += 1;
        statuses[index] = await embed(targets[index % targets.length] as string, key);
      }
    }),
  );
  return statuses;
}

const admitted = (statuses: readonly number[]): number =>
  statuses.filter((status) => status === 200).length;
const fallbacks = (): number => replicas.reduce((sum, replica) => sum + replica.fallbacks(), 0);

async function waitUntilShared(replica: LimitedReplica): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const before = replica.fallbacks();
    await embed(replica.baseUrl, 'key-probe-01234567');
    if (replica.fallbacks() === before) return;
    if (Date.now() > deadline) throw new Error(`replica ${replica.baseUrl} never reached Redis`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Lease-script calls Redis has run so far (EVALSHA, and EVAL after a restart). */
async function scriptCalls(): Promise<number> {
  const stats = await observer.info('commandstats');
  const calls = (command: string): number =>
    Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
  return calls('evalsha') + calls('eval');
}

describe('key limits spent from leases by three replicas', () => {
  it('never admits more than a small limit (10 per minute over 3 replicas), and refuses early by at most one per other replica', async () => {
    const before = fallbacks();
    const statuses = await spread(
      replicas.map((replica) => replica.baseUrl),
      'key-small-01234567',
      30,
    );
    console.info(`10 per minute, 30 requests over 3 replicas: ${admitted(statuses)} admitted`);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect(fallbacks()).toBe(before);
    expect(admitted(statuses)).toBeLessThanOrEqual(10);
    expect(admitted(statuses)).toBeGreaterThanOrEqual(10 - 2);
  });

  it('admits within 5 % of a limit whose leases hold several requests (450 per minute, three times that spread over the replicas)', async () => {
    const before = fallbacks();
    const statuses = await spread(
      replicas.map((replica) => replica.baseUrl),
      'key-wide-012345678',
      1350,
      24,
    );
    console.info(`450 per minute, 1350 requests over 3 replicas: ${admitted(statuses)} admitted`);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect(fallbacks()).toBe(before);
    expect(admitted(statuses)).toBeLessThanOrEqual(450);
    expect(admitted(statuses)).toBeGreaterThanOrEqual(450 - 22);
  });

  it('follows the load when it moves from one replica to another mid-window', async () => {
    const [first, second, third] = replicas as [LimitedReplica, LimitedReplica, LimitedReplica];
    const before = fallbacks();
    // Half the limit on the first replica, then three times the rest on the second, then the third.
    const onFirst = await spread([first.baseUrl], 'key-moves-01234567', 150);
    expect(admitted(onFirst)).toBe(150);
    const onSecond = await spread([second.baseUrl], 'key-moves-01234567', 450);
    const onThird = await spread([third.baseUrl], 'key-moves-01234567', 60);
    expect(fallbacks()).toBe(before);
    // What the first replica's lease still held when the load left it (at most 5 % of 300 / 3 = 5) is all
    // the others can miss.
    expect(admitted(onSecond)).toBeGreaterThanOrEqual(150 - 5);
    const total = admitted(onFirst) + admitted(onSecond) + admitted(onThird);
    console.info(
      `300 per minute, load moved: ${admitted(onFirst)} + ${admitted(onSecond)} + ${admitted(onThird)} = ${total} admitted`,
    );
    expect(total).toBeLessThanOrEqual(300);
    expect(total).toBeGreaterThanOrEqual(300 - 15);
  });

  it('admits a busy key from its lease: far fewer Redis calls than requests', async () => {
    const [first] = replicas as [LimitedReplica];
    const callsBefore = await scriptCalls();
    const before = fallbacks();
    const statuses = await spread([first.baseUrl], 'key-busy-012345678', 600, 16);
    const calls = (await scriptCalls()) - callsBefore;
    console.info(`600 requests of a busy key on one replica: ${calls} Redis script calls`);
    expect(admitted(statuses)).toBe(600);
    expect(fallbacks()).toBe(before);
    expect(calls).toBeLessThanOrEqual(60);
  });
});
