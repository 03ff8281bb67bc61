import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { startRecordingUpstream, type RecordingUpstream } from '@infergate/testkit';
import { dripChatHandler } from './drip-chat-handler.js';
import { startLimitedReplicas, type LimitedReplica } from './start-limited-replicas.js';
import { startRedisServer, type RedisServer } from './start-redis-server.js';

/*
 * Three node-server replicas on one real redis-server, clients spreading
 * three times a key's limit across them.
 */

const keys = [
  { key: 'key-rpm-0123456789', name: 'rpm', limits: { requests_per_minute: 60 } },
  { key: 'key-tpm-0123456789', name: 'tpm', limits: { tokens_per_minute: 2000 } },
  { key: 'key-outage-0123456', name: 'outage', limits: { requests_per_minute: 60 } },
  { key: 'key-after-01234567', name: 'after', limits: { requests_per_minute: 60 } },
  { key: 'key-slow-012345678', name: 'slow', limits: { requests_per_minute: 1000 } },
  { key: 'key-probe-01234567', name: 'probe', limits: { requests_per_minute: 100000 } },
  {
    key: 'key-budget-0123456',
    name: 'budget',
    budget: { amount: 3, currency: 'USD', period: 'day' },
  },
  {
    key: 'key-budget-outage-0',
    name: 'budget-outage',
    budget: { amount: 0.645, currency: 'USD', period: 'day' },
  },
];
const budgetAmount = 3;
const chatModel = 'alpha36-35b-a3b-instruct';

let redis: RedisServer;
let upstream: RecordingUpstream;
let replicas: LimitedReplica[];

beforeAll(async () => {
  redis = await startRedisServer();
  upstream = await startRecordingUpstream({
    handlers: {
      'POST /v1/chat/completions': dripChatHandler({ tokens: 20, promptTokens: 50, delayMs: 2 }),
    },
  });
  replicas = await startLimitedReplicas({
    upstreamUrl: upstream.url,
    keys,
    redis: { url: redis.url, replicas: 3, budget_ms: 500 },
    // A dollar per thousand tokens: the budget lasts about forty of the streams below.
    prices: {
      [chatModel]: { input_per_million: 1000, output_per_million: 1000, currency: 'USD' },
      // A cent per embedding request of one token.
      'alpha3-vl-embedding-8b': {
        input_per_million: 10_000,
        output_per_million: 0,
        currency: 'USD',
      },
    },
    count: 3,
  });
  await Promise.all(replicas.map((replica) => waitUntilShared(replica)));
});

afterAll(async () => {
  await Promise.allSettled((replicas ?? []).map((replica) => replica.server.close(200)));
  await upstream?.close();
  await redis?.stop();
});

function embed(baseUrl: string, key: string): Promise<Response> {
  return fetch(`${baseUrl}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'alpha3-vl-embedding-8b', input: 'hello' }),
  });
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
        const response = await embed(targets[index % targets.length] as string, key);
        await response.arrayBuffer();
        statuses[index] = response.status;
      }
    }),
  );
  return statuses;
}

const admitted = (statuses: readonly number[]): number =>
  statuses.filter((status) => status === 200).length;

/** Waits (generously) until a replica decides through Redis again: a probe that does not fall back. */
async function waitUntilShared(replica: LimitedReplica): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const before = replica.fallbacks();
    const response = await embed(replica.baseUrl, 'key-probe-01234567');
    await response.arrayBuffer();
    if (replica.fallbacks() === before) return;
    if (Date.now() > deadline) throw new Error(`replica ${replica.baseUrl} never reached Redis`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('key limits shared by three replicas through Redis', () => {
  it('admits the limit within 5 % in total when a client spreads three times the limit across the replicas', async () => {
    const fallbacksBefore = replicas.map((replica) => replica.fallbacks());
    const statuses = await spread(
      replicas.map((replica) => replica.baseUrl),
      'key-rpm-0123456789',
      180,
    );
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expect(Math.abs(admitted(statuses) - 60)).toBeLessThanOrEqual(3);
    // Every replica admitted some: the count was shared, not one replica's alone.
    for (let index = 0; index < replicas.length; index += 1)
      expect(
        admitted(statuses.filter((_status, position) => position % replicas.length === index)),
      ).toBeGreaterThan(0);
    // Decided by Redis, not by each replica's local share (which would also add up to 60): a generous
    // 500 ms budget leaves room for a loaded machine, where a rare call may still fall back.
    const fellBack = replicas.reduce(
      (sum, replica, index) => sum + replica.fallbacks() - (fallbacksBefore[index] as number),
      0,
    );
    expect(fellBack).toBeLessThanOrEqual(9);
  });

  it('spends a budget within 5 % across the replicas: never past it, refused at most 5 % early', async () => {
    const targets = replicas.map((replica) => replica.baseUrl);
    const fallbacksBefore = replicas.map((replica) => replica.fallbacks());
    const body = JSON.stringify({
      model: chatModel,
      messages: [{ role: 'user', content: 'word '.repeat(40) }],
      max_tokens: 20,
      stream: true,
      stream_options: { include_usage: true },
    });
    // What docs/operations.md says is reserved: a quarter of the body's characters in, max_tokens out.
    const estimate = (Math.ceil(body.length / 4) + 20) / 1000;
    let spent = 0;
    const send = async (target: string): Promise<number> => {
      const response = await fetch(`${target}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer key-budget-0123456', 'content-type': 'application/json' },
        body,
      });
      const text = await response.text();
      if (response.status === 429) {
        expect(text).toContain('budget_exceeded');
        return 429;
      }
      expect(response.status, text).toBe(200);
      const usage = text
        .split('\n')
        .filter((line) => line.startsWith('data: {'))
        .map((line) => JSON.parse(line.slice(6)) as { usage?: { total_tokens: number } })
        .find((chunk) => chunk.usage)?.usage;
      // A dollar per thousand tokens, input and output alike.
      spent += (usage?.total_tokens ?? 0) / 1000;
      return 200;
    };
    // Three times the budget in real cost, six at a time across the replicas.
    let next = 0;
    let refused = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < 130) {
          const target = targets[next % targets.length] as string;
          next += 1;
          if ((await send(target)) === 429) refused += 1;
        }
      }),
    );
    expect(refused).toBeGreaterThan(0);
    // Then one at a time, so that no reservation is in flight, until every replica refuses in turn.
    for (let index = 0, refusedInARow = 0; refusedInARow < targets.length; index += 1) {
      expect(index).toBeLessThan(200);
      refusedInARow =
        (await send(targets[index % targets.length] as string)) === 429 ? refusedInARow + 1 : 0;
    }
    // Never past the budget (each request's estimate covers its usage), and refused at most
    // accuracy_percent (5 %) early, besides the one estimate that no longer fits.
    expect(spent).toBeLessThanOrEqual(budgetAmount + 1e-9);
    expect(spent).toBeGreaterThanOrEqual(budgetAmount * 0.95 - estimate);
    // Decided through Redis, not by each replica's local third (which would also add up to the budget).
    const fellBack = replicas.reduce(
      (sum, replica, index) => sum + replica.fallbacks() - (fallbacksBefore[index] as number),
      0,
    );
    expect(fellBack).toBeLessThanOrEqual(9);
  });

  it('holds the token limit with streaming requests: the usage of every admitted stream stays within tokens_per_minute', async () => {
    let usedTokens = 0;
    let admittedStreams = 0;
    let refusedForTokens = 0;
    const body = JSON.stringify({
      model: 'alpha36-35b-a3b-instruct',
      messages: [{ role: 'user', content: 'word '.repeat(40) }],
      max_tokens: 20,
      stream: true,
      stream_options: { include_usage: true },
    });
    // 3x the limit in real usage: 70 tokens per stream, 2000 tokens per minute.
    let next = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < 90) {
          const target = replicas[next % replicas.length] as LimitedReplica;
          next += 1;
          const response = await fetch(`${target.baseUrl}/v1/chat/completions`, {
            method: 'POST',
            headers: {
              authorization: 'Bearer key-tpm-0123456789',
              'content-type': 'application/json',
            },
            body,
          });
          const text = await response.text();
          if (response.status === 429) {
            expect(response.headers.get('x-ratelimit-limit-tokens')).toBe('2000');
            if (text.includes('tokens per minute')) refusedForTokens += 1;
            continue;
          }
          expect(response.status).toBe(200);
          admittedStreams += 1;
          const usage = text
            .split('\n')
            .filter((line) => line.startsWith('data: {'))
            .map((line) => JSON.parse(line.slice(6)) as { usage?: { total_tokens: number } })
            .find((chunk) => chunk.usage)?.usage;
          usedTokens += usage?.total_tokens ?? 0;
        }
      }),
    );
    expect(admittedStreams).toBeGreaterThan(0);
    expect(refusedForTokens).toBeGreaterThan(0);
    expect(usedTokens).toBeLessThanOrEqual(2000 * 1.05);
  });

  it('falls back to local limits (limit / replicas) while Redis is stopped, and shares again once it is back', async () => {
    const logsBefore = replicas.map((replica) => replica.logs.length);
    await redis.stop();
    const targets = replicas.map((replica) => replica.baseUrl);
    const during = await spread(targets, 'key-outage-0123456', 90);
    // Every request answered, none with a 5xx: each replica admits its share, 60 / 3.
    expect(during.every((status) => status === 200 || status === 429)).toBe(true);
    for (let index = 0; index < replicas.length; index += 1) {
      expect(
        admitted(during.filter((_status, position) => position % replicas.length === index)),
      ).toBe(20);
      const replica = replicas[index] as LimitedReplica;
      expect(replica.fallbacks()).toBeGreaterThan(0);
      // Logged once for the outage, not once per request.
      expect(
        replica.logs.slice(logsBefore[index]).filter((line) => line.includes('counting locally')),
      ).toHaveLength(1);
    }

    // A budget too: each replica spends a third of it. One at a time, so that no reservation is in
    // flight: a request of 51 characters reserves 13 tokens (0.13 USD) and costs one (0.01 USD), so
    // a share of 0.215 USD admits while 0.01 n + 0.13 <= 0.215, 9 requests.
    const budgeted = await spread(targets, 'key-budget-outage-0', 36, 1);
    for (let index = 0; index < replicas.length; index += 1)
      expect(
        admitted(budgeted.filter((_status, position) => position % replicas.length === index)),
      ).toBe(9);

    await redis.restart();
    await Promise.all(replicas.map((replica) => waitUntilShared(replica)));
    // Shared again: one replica alone admits the whole limit (locally it would admit 20) and the
    // others then find it used up.
    const [first, ...others] = replicas as [LimitedReplica, ...LimitedReplica[]];
    expect(admitted(await spread([first.baseUrl], 'key-after-01234567', 90))).toBe(60);
    expect(
      admitted(
        await spread(
          others.map((replica) => replica.baseUrl),
          'key-after-01234567',
          30,
        ),
      ),
    ).toBe(0);
    expect(
      first.logs.slice(logsBefore[0]).some((line) => line.includes('Redis answers again')),
    ).toBe(true);
  });

  it('answers from local limits, never with an error, while Redis is slower than the budget', async () => {
    const blocker = new Redis(redis.url);
    try {
      // Connected before the sleep is sent: the server was just restarted by the test before.
      await blocker.ping();
      const replica = replicas[1] as LimitedReplica;
      const before = replica.fallbacks();
      // DEBUG SLEEP blocks the whole server: every admission call is over the 500 ms budget.
      const sleeping = blocker.call('DEBUG', 'SLEEP', '2');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const response = await embed(replica.baseUrl, 'key-slow-012345678');
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      expect(replica.fallbacks()).toBeGreaterThan(before);
      await sleeping;
      await waitUntilShared(replica);
    } finally {
      blocker.disconnect();
    }
  });
});
