import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemoryBudgetStore,
  createMemoryLimitStore,
  type BudgetLease,
  type BudgetStore,
  type KeyBudget,
  type KeyLimits,
  type LimitDecision,
  type LimitStore,
} from '@infergate/core';
import { createRedisLimitStore, type RedisLimitStore } from '@infergate/node-runtime/redis';
import { startRedisServer, type RedisServer } from './start-redis-server.js';

/*
 * The Redis store applies core's rate-limit policy (its Lua script transcribes it for leases): the same
 * steps, on the same clock, through both stores must give the same decisions, headers figures and
 * retry times. With one replica that holds for leases too: whatever it holds unused is its own.
 */

let redis: RedisServer;
// accuracy_percent 0: every decision made in Redis; 5 (the default): decisions from leases.
const stores = new Map<number, RedisLimitStore>();
let now = 1_750_000_000_000;
const clock = { now: () => now };
let fallbacks = 0;

beforeAll(async () => {
  redis = await startRedisServer();
  for (const accuracyPercent of [0, 5]) {
    const store = createRedisLimitStore({
      url: redis.url,
      budgetMs: 2_000,
      replicas: 1,
      slotTtlMs: 30_000,
      accuracyPercent,
      leaseMs: 1_000,
      clock,
      metrics: {
        record: () => undefined,
        limiterFallback: () => {
          fallbacks += 1;
        },
      },
    });
    stores.set(accuracyPercent, store);
    // Connected: a request that Redis decides (a huge budget, so no fallback once it is up).
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const before = fallbacks;
      await store.acquire({
        key: `warm-up-${accuracyPercent}`,
        limits: { requestsPerMinute: 1000 },
        estimatedTokens: 0,
      });
      if (fallbacks === before) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
});

afterAll(async () => {
  await Promise.allSettled([...stores.values()].map((store) => store.close()));
  await redis?.stop();
});

type Step =
  { acquire: number; tokens?: number } | { settle: number; used: number } | { advanceMs: number };

// The snapshot is copied: a store may reuse it for its next decision (limit-store.ts).
function summary(decision: LimitDecision): unknown {
  return decision.admitted
    ? { admitted: true, snapshot: structuredClone(decision.snapshot) }
    : {
        admitted: false,
        rejectedBy: decision.rejectedBy,
        retryAfterMs: decision.retryAfterMs,
        snapshot: decision.snapshot,
      };
}

async function replay(
  store: LimitStore,
  key: string,
  limits: KeyLimits,
  steps: readonly Step[],
  startAt: number,
): Promise<unknown[]> {
  now = startAt;
  const leases: (LimitDecision & { admitted: true })['lease'][] = [];
  const outcomes: unknown[] = [];
  for (const step of steps) {
    if ('acquire' in step) {
      const decision = await store.acquire({ key, limits, estimatedTokens: step.tokens ?? 0 });
      if (decision.admitted) leases[step.acquire] = decision.lease;
      outcomes.push(summary(decision));
    } else if ('settle' in step) {
      leases[step.settle]?.settle(step.used);
    } else {
      now += step.advanceMs;
    }
  }
  return outcomes;
}

const scenarios: { name: string; limits: KeyLimits; steps: Step[] }[] = [
  {
    name: 'requests per minute, then a new window',
    limits: { requestsPerMinute: 3 },
    steps: [
      { acquire: 0 },
      { advanceMs: 1_000 },
      { acquire: 1 },
      { acquire: 2 },
      { acquire: 3 },
      { advanceMs: 58_999 },
      { acquire: 4 },
      { advanceMs: 1 },
      { acquire: 5 },
    ],
  },
  {
    name: 'tokens reserved, settled lower, then admitted',
    limits: { tokensPerMinute: 100, requestsPerMinute: 50 },
    steps: [
      { acquire: 0, tokens: 60 },
      { acquire: 1, tokens: 40 },
      { acquire: 2, tokens: 1 },
      { settle: 0, used: 10 },
      { acquire: 3, tokens: 45 },
      { acquire: 4, tokens: 6 },
    ],
  },
  {
    name: 'concurrency slots held and given back',
    limits: { concurrentRequests: 2 },
    steps: [
      { acquire: 0 },
      { acquire: 1 },
      { acquire: 2 },
      { settle: 1, used: 0 },
      { acquire: 3 },
      { acquire: 4 },
    ],
  },
  {
    name: 'extra use settled after the window carried into the next',
    limits: { tokensPerMinute: 100 },
    steps: [
      { acquire: 0, tokens: 10 },
      { advanceMs: 61_000 },
      { acquire: 1, tokens: 10 },
      { settle: 0, used: 80 },
      { acquire: 2, tokens: 21 },
      { acquire: 3, tokens: 20 },
    ],
  },
];

describe.each([0, 5])(
  'the Redis store (accuracy_percent %i, one replica) decides exactly as the in-memory store (core policy)',
  (accuracyPercent) => {
    for (const [index, scenario] of scenarios.entries()) {
      it(scenario.name, async () => {
        const startAt = 1_750_000_000_000 + index * 10_000_000;
        const expected = await replay(
          createMemoryLimitStore(clock),
          scenario.name,
          scenario.limits,
          scenario.steps,
          startAt,
        );
        const before = fallbacks;
        const actual = await replay(
          stores.get(accuracyPercent) as RedisLimitStore,
          `${scenario.name} ${accuracyPercent}`,
          scenario.limits,
          scenario.steps,
          startAt,
        );
        expect(fallbacks).toBe(before);
        expect(actual).toEqual(expected);
        // Not vacuous: every scenario admits and refuses something.
        expect(expected.some((outcome) => (outcome as { admitted: boolean }).admitted)).toBe(true);
        expect(expected.some((outcome) => !(outcome as { admitted: boolean }).admitted)).toBe(true);
      });
    }
  },
);

type BudgetStep =
  { acquire: number; cost: number } | { settle: number; used: number } | { advanceMs: number };

// Rounded: the two stores add the same amounts in different orders (Redis counts leases too).
const rounded = (amount: number): number => Math.round(amount * 1e9) / 1e9;

async function replayBudget(
  store: BudgetStore,
  key: string,
  budget: KeyBudget,
  steps: readonly BudgetStep[],
  startAt: number,
): Promise<unknown[]> {
  now = startAt;
  const leases: BudgetLease[] = [];
  const outcomes: unknown[] = [];
  for (const step of steps) {
    if ('acquire' in step) {
      const decision = await store.acquireBudget({ key, budget, estimatedCost: step.cost });
      if (decision.admitted) leases[step.acquire] = decision.lease;
      outcomes.push(
        decision.admitted
          ? {
              admitted: true,
              remaining: rounded(decision.lease.remaining),
              resetAt: decision.lease.resetAt,
            }
          : { admitted: false, remaining: rounded(decision.remaining), resetAt: decision.resetAt },
      );
    } else if ('settle' in step) {
      const lease = leases[step.settle] as BudgetLease;
      lease.settle(step.used);
      outcomes.push({ settled: step.settle, remaining: rounded(lease.remaining) });
    } else {
      now += step.advanceMs;
    }
  }
  return outcomes;
}

const budgetScenarios: { name: string; budget: KeyBudget; startAt: number; steps: BudgetStep[] }[] =
  [
    {
      name: 'budget reserved, settled lower, refused once spent',
      budget: { amount: 1, currency: 'USD', period: 'day' },
      startAt: Date.parse('2026-12-02T10:00:00Z'),
      steps: [
        { acquire: 0, cost: 0.5 },
        { acquire: 1, cost: 0.25 },
        { settle: 0, used: 0.25 },
        { acquire: 2, cost: 0.5 },
        { acquire: 3, cost: 0.125 },
        { settle: 2, used: 0.25 },
        { acquire: 4, cost: 0.375 },
        { acquire: 5, cost: 0.25 },
        { settle: 1, used: 0.25 },
        { acquire: 6, cost: 0 },
      ],
    },
    {
      name: 'extra cost settled after the day ended carried into the next',
      budget: { amount: 1, currency: 'USD', period: 'day' },
      startAt: Date.parse('2026-12-02T23:59:59Z'),
      steps: [
        { acquire: 0, cost: 0.5 },
        { advanceMs: 2_000 },
        { settle: 0, used: 0.75 },
        { acquire: 1, cost: 0.875 },
        { acquire: 2, cost: 0.75 },
        { acquire: 3, cost: 0.5 },
      ],
    },
  ];

describe.each([0, 5])(
  'the Redis store (accuracy_percent %i, one replica) counts budgets exactly as the in-memory store',
  (accuracyPercent) => {
    for (const scenario of budgetScenarios) {
      it(scenario.name, async () => {
        const expected = await replayBudget(
          createMemoryBudgetStore(clock),
          scenario.name,
          scenario.budget,
          scenario.steps,
          scenario.startAt,
        );
        const before = fallbacks;
        const actual = await replayBudget(
          stores.get(accuracyPercent) as RedisLimitStore,
          `${scenario.name} ${accuracyPercent}`,
          scenario.budget,
          scenario.steps,
          scenario.startAt,
        );
        expect(fallbacks).toBe(before);
        expect(actual).toEqual(expected);
        expect(expected).toContainEqual(expect.objectContaining({ admitted: true }));
        expect(expected).toContainEqual(expect.objectContaining({ admitted: false }));
      });
    }
  },
);
