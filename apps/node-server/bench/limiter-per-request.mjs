// What key limits cost per request at the limit store itself, in one process: the store's acquire and
// the lease's settle, as the gateway calls them for a limited key, with no limits (the store is never
// asked), the in-memory store and the Redis store with leases (a real redis-server). Figures are medians
// of per-round differences against the same round's "none": CPU ns per request (BENCH_LIMITER_REQUESTS
// per sample) and heap bytes per request (BENCH_LIMITER_ALLOC_REQUESTS; a sample with a GC in it is
// dropped and counted). Run it as `node bench/run-bench.mjs --only=8` in packages/testkit does:
// node --expose-gc --min-semi-space-size=64 --max-semi-space-size=64 bench/limiter-per-request.mjs
import { PerformanceObserver } from 'node:perf_hooks';
import process from 'node:process';
import { setImmediate as nextTurn, setTimeout as delay } from 'node:timers/promises';
import { createMemoryLimitStore } from '@infergate/core';
import { createRedisLimitStore } from '@infergate/node-runtime/redis';
import { startBenchRedis } from './start-bench-redis.mjs';

const gc = globalThis.gc;
if (typeof gc !== 'function') {
  process.stderr.write(
    'run with node --expose-gc (and --min-semi-space-size=64 --max-semi-space-size=64)\n',
  );
  process.exit(2);
}
const requests = Number(process.env.BENCH_LIMITER_REQUESTS ?? 200_000);
const allocRequests = Number(process.env.BENCH_LIMITER_ALLOC_REQUESTS ?? 20_000);
const rounds = Number(process.env.BENCH_LIMITER_ROUNDS ?? 7);
// Requests in flight: a ticket is settled this many requests after it was taken, so slots are held.
const inFlight = 64;
// Requests per event-loop turn: the gateway reads a few requests per turn, and the Redis store renews
// its leases between turns (setImmediate), so the loop yields as often for every variant.
const perTurn = 64;

const clock = { now: () => Date.now() };
// High enough never to refuse (the bench measures what admitting costs), within the small integers a
// real configuration has: a count past 2^30 is a heap number in V8, and would add allocations no gateway sees.
const limits = {
  requestsPerMinute: 100_000_000,
  tokensPerMinute: 1_000_000_000,
  concurrentRequests: 1000,
};
// What the gateway reserves for the bench's chat request (its max_tokens and a prompt estimate), and
// the usage its answer settles with.
const estimatedTokens = 16 + 9;
const usedTokens = 9 + 3;

function variant(name, store, limits) {
  return { name, store, limits };
}

// `count` requests: each admitted, and its lease settled `inFlight` requests later, so slots are held.
// Awaits only what is a promise.
async function drive(subject, count) {
  const leases = new Array(inFlight).fill(undefined);
  const { name, store, limits } = subject;
  for (let index = 0; index < count; index += 1) {
    let lease;
    if (limits !== undefined) {
      let decision = store.acquire({ key: name, limits, estimatedTokens });
      if (decision instanceof Promise) decision = await decision;
      if (decision.admitted) lease = decision.lease;
    }
    const slot = index % inFlight;
    leases[slot]?.settle(usedTokens);
    leases[slot] = lease;
    if (index % perTurn === perTurn - 1) await nextTurn();
  }
  for (const lease of leases) lease?.settle(usedTokens);
}

// CPU time (user + system) rather than wall time: on a shared machine the wall time counts the turns
// other processes had the core.
async function timeSample(subject) {
  const before = process.cpuUsage();
  await drive(subject, requests);
  const used = process.cpuUsage(before);
  return ((used.user + used.system) * 1000) / requests;
}

let gcRuns = 0;
const gcObserver = new PerformanceObserver((list) => {
  gcRuns += list.getEntries().length;
});
gcObserver.observe({ entryTypes: ['gc'] });

async function allocationSample(subject) {
  gc();
  gc();
  // The observer delivers its entries some milliseconds late: those of the forced collections first.
  await delay(20);
  const runsBefore = gcRuns;
  const before = process.memoryUsage().heapUsed;
  await drive(subject, allocRequests);
  const after = process.memoryUsage().heapUsed;
  await delay(20);
  if (gcRuns !== runsBefore) return undefined;
  return (after - before) / allocRequests;
}

const median = (values) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const redis = await startBenchRedis();
const redisStore = createRedisLimitStore({
  url: redis.url,
  budgetMs: 1_000,
  replicas: 1,
  slotTtlMs: 30_000,
  accuracyPercent: 5,
  leaseMs: 1_000,
  clock,
});
const subjects = [
  variant('none', createMemoryLimitStore(clock), undefined),
  variant('memory', createMemoryLimitStore(clock), limits),
  variant('redis', redisStore, limits),
];
const times = Object.fromEntries(subjects.map((subject) => [subject.name, []]));
const bytes = Object.fromEntries(subjects.map((subject) => [subject.name, []]));
let droppedAllocationSamples = 0;
let redisCalls = 0;
try {
  await redisStore.whenConnected();
  // Warm-up: JIT, the Redis connection, its script cache and a lease sized to the key's rate.
  for (const subject of subjects) await drive(subject, 50_000);
  await delay(100);
  for (let round = 0; round < rounds; round += 1) {
    for (let turn = 0; turn < subjects.length; turn += 1) {
      const subject = subjects[(round + turn) % subjects.length];
      times[subject.name].push(await timeSample(subject));
    }
    for (let turn = 0; turn < subjects.length; turn += 1) {
      const subject = subjects[(round + turn) % subjects.length];
      const sample = await allocationSample(subject);
      if (sample === undefined) droppedAllocationSamples += 1;
      else bytes[subject.name].push(sample);
    }
  }
  const { Redis } = await import('ioredis');
  const observer = new Redis(redis.url);
  const stats = await observer.info('commandstats');
  redisCalls = ['evalsha', 'eval'].reduce(
    (sum, command) =>
      sum + Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0),
    0,
  );
  observer.disconnect();
} finally {
  gcObserver.disconnect();
  await redisStore.close();
  redis.stop();
}

const totalRedisRequests = 50_000 + rounds * (requests + allocRequests);
const rows = subjects.map(({ name }) => {
  const addedNs = times[name].map((value, index) => value - times.none[index]);
  return {
    name,
    nsPerRequest: median(times[name]),
    addedUs: median(addedNs) / 1000,
    bytesPerRequest: median(bytes[name]),
    addedBytes: median(bytes[name]) - median(bytes.none),
    nsRounds: times[name],
    bytesRounds: bytes[name],
  };
});
const targets = { memory: 10, redis: 30 };
const log = (line) => process.stdout.write(`${line}\n`);
log(
  `limiter per request, in one process (the store's acquire + the lease's settle, ${inFlight} in flight, a turn every ${perTurn}): ${rounds} interleaved rounds; time over ${requests.toLocaleString('en-US')} requests per sample, heap over ${allocRequests.toLocaleString('en-US')}`,
);
log(
  'variant    CPU ns/req  added us/req  target      bytes/req  added bytes  ns/req of each round',
);
for (const row of rows) {
  const bound = targets[row.name];
  const verdict =
    bound === undefined ? '-' : `<= +${bound} us ${row.addedUs <= bound ? 'met' : 'NOT met'}`;
  log(
    `${row.name.padEnd(8)} ${row.nsPerRequest.toFixed(0).padStart(11)} ${(row.name === 'none' ? '-' : `+${row.addedUs.toFixed(2)}`).padStart(14)}  ${verdict.padEnd(18)} ${row.bytesPerRequest.toFixed(0).padStart(7)} ${(row.name === 'none' ? '-' : `${row.addedBytes >= 0 ? '+' : ''}${row.addedBytes.toFixed(0)}`).padStart(12)}  ${row.nsRounds.map((value) => value.toFixed(0)).join(' ')}`,
  );
}
log(
  `Redis lease-script calls: ${redisCalls} for ${totalRedisRequests.toLocaleString('en-US')} requests of the Redis variant; allocation samples dropped because a GC ran: ${droppedAllocationSamples}`,
);
log(
  JSON.stringify({
    bench: 'limiter-per-request',
    requests,
    allocRequests,
    rounds,
    inFlight,
    perTurn,
    rows,
    redisCalls,
    droppedAllocationSamples,
  }),
);
