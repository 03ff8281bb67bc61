// Cost per request of key limits: the same gateway and stub with no limits, the in-memory store, the
// Redis store with leases (the default) and the Redis store deciding every request in Redis
// (redis.accuracy_percent: 0), against one real redis-server; non-streaming chat, 64 at a time, then
// the same through Fastify's inject, then the stores alone. The variants take turns round after round,
// so that machine drift weighs on all; the figures are medians. `pnpm bench` runs it as scenario 8;
// alone, after a build: `node bench/limiter-cost.mjs`.
import { Buffer } from 'node:buffer';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setTimeout as delay } from 'node:timers/promises';
import { createMemoryLimitStore, resolveGatewayConfig } from '@infergate/core';
import { Redis } from 'ioredis';
import { createInProcessTransport } from '@infergate/upstream';
import { createRedisLimitStore } from '@infergate/node-runtime/redis';
import { buildServer } from '../dist/index.js';
import { startBenchRedis } from './start-bench-redis.mjs';

const requests = Number(process.env.BENCH_REQUESTS ?? 2000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const parallel = 64;
const completion = JSON.stringify({
  id: 'chatcmpl-0123456789abcdef0123456789abcdef',
  object: 'chat.completion',
  created: 1_750_000_000,
  model: 'alpha36-35b-a3b-instruct',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Hello there.' },
      logprobs: null,
      finish_reason: 'stop',
    },
  ],
  usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
});
const body = JSON.stringify({
  model: 'alpha36-35b-a3b-instruct',
  messages: [{ role: 'user', content: 'hello' }],
  max_tokens: 16,
});

async function listen(server) {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server.address().port;
}

async function startUpstream() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(completion),
      });
      response.end(completion);
    });
  });
  return {
    url: `http://127.0.0.1:${await listen(server)}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

// High enough never to refuse: the bench measures what admitting costs.
const limits = {
  requests_per_minute: 100_000_000,
  tokens_per_minute: 1_000_000_000,
  concurrent_requests: 1000,
};
const variants = {
  off: { limited: false },
  memory: { limited: true },
  redis: { limited: true, redis: {} },
  'redis-exact': { limited: true, redis: { accuracy_percent: 0 } },
};

async function startGateway(upstreamUrl, variant, redisUrl, inProcess = false) {
  const { limited, redis } = variants[variant];
  const key = {
    key: 'bench-key-0123456789',
    name: `bench-${variant}`,
    ...(limited ? { limits } : {}),
  };
  const file = {
    upstreams: [
      {
        name: 'stub',
        url: upstreamUrl,
        protocol: 'openai',
        models: { 'alpha36-35b-a3b-instruct': 'alpha36-35b-a3b-instruct' },
      },
    ],
    keys: [key],
    metrics: { enabled: false },
    docs: { enabled: false },
    ...(redis === undefined ? {} : { redis: { url: redisUrl, ...redis } }),
  };
  if (inProcess) {
    const upstreamHandler = async () =>
      new globalThis.Response(completion, { headers: { 'content-type': 'application/json' } });
    const server = await buildServer(resolveGatewayConfig(file, {}), {
      transportFor: () => createInProcessTransport(upstreamHandler),
    });
    await server.app.ready();
    return { app: server.app, close: () => server.close(100) };
  }
  const server = await buildServer(resolveGatewayConfig(file, {}));
  const baseUrl = await server.app.listen({ host: '127.0.0.1', port: 0 });
  return { baseUrl, close: () => server.close(100) };
}

async function runInjected(app, count, concurrency) {
  let next = 0;
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        const response = await app.inject({
          method: 'POST',
          url: '/v1/chat/completions',
          headers: {
            authorization: 'Bearer bench-key-0123456789',
            'content-type': 'application/json',
          },
          payload: body,
        });
        if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  return { cpuUsPerRequest: (cpu.user + cpu.system) / count };
}

async function send(baseUrl) {
  const response = await globalThis.fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: 'Bearer bench-key-0123456789', 'content-type': 'application/json' },
    body,
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`status ${response.status}`);
}

async function run(baseUrl, count, concurrency) {
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        await send(baseUrl);
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    cpuUsPerRequest: (cpu.user + cpu.system) / count,
    perSecond: count / (elapsedMs / 1000),
  };
}

// The store alone: acquire and settle of one limited key, `concurrency` requests in flight at a time.
async function storeCost(store, count, concurrency) {
  const request = {
    key: 'store-bench',
    limits: {
      requestsPerMinute: 100_000_000,
      tokensPerMinute: 1_000_000_000,
      concurrentRequests: 1000,
    },
    estimatedTokens: 30,
  };
  const one = async () => {
    const decision = await store.acquire(request);
    if (!decision.admitted) throw new Error(`refused by ${decision.rejectedBy}`);
    decision.lease.settle(12);
  };
  for (let index = 0; index < 20_000; index += 1) await one();
  let next = 0;
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        await one();
      }
    }),
  );
  const cpu = process.cpuUsage(cpuBefore);
  return (cpu.user + cpu.system) / count;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const upstream = await startUpstream();
const redis = await startBenchRedis();
const names = Object.keys(variants);
const samples = Object.fromEntries(names.map((name) => [name, []]));
const stores = {};
const gateways = {};
const injectedGateways = {};
const injected = Object.fromEntries(names.map((name) => [name, []]));
const observer = new Redis(redis.url);
// Lease-script calls Redis has run so far (EVALSHA, and EVAL after a restart).
const scriptCalls = async () => {
  const stats = await observer.info('commandstats');
  return ['evalsha', 'eval'].reduce(
    (sum, command) =>
      sum + Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0),
    0,
  );
};
try {
  for (const name of names) gateways[name] = await startGateway(upstream.url, name, redis.url);
  // Warm-up: JIT, keep-alive connections, the Redis connections and their script cache.
  await delay(300);
  for (const name of names) await run(gateways[name].baseUrl, 1000, parallel);
  for (let round = 0; round < rounds; round += 1) {
    for (let turn = 0; turn < names.length; turn += 1) {
      const name = names[(round + turn) % names.length];
      const callsBefore = await scriptCalls();
      const sample = await run(gateways[name].baseUrl, requests, parallel);
      sample.redisCalls = (await scriptCalls()) - callsBefore;
      samples[name].push(sample);
    }
  }
  for (const name of names) {
    const gateway = await startGateway(upstream.url, name, redis.url, true);
    injectedGateways[name] = gateway;
    await runInjected(gateway.app, 2000, parallel);
  }
  for (let round = 0; round < rounds; round += 1) {
    for (let turn = 0; turn < names.length; turn += 1) {
      const name = names[(round + turn) % names.length];
      injected[name].push(await runInjected(injectedGateways[name].app, requests * 2, parallel));
    }
  }
  const clock = { now: () => Date.now() };
  const storeCount = requests * 20;
  stores.memory = await storeCost(createMemoryLimitStore(clock), storeCount, parallel);
  for (const [name, accuracyPercent] of [
    ['redis', 5],
    ['redis-exact', 0],
  ]) {
    const store = createRedisLimitStore({
      url: redis.url,
      budgetMs: 1_000,
      replicas: 1,
      slotTtlMs: 30_000,
      accuracyPercent,
      leaseMs: 1_000,
      clock,
    });
    await delay(200);
    stores[name] = await storeCost(store, name === 'redis' ? storeCount : requests * 2, parallel);
    await store.close();
  }
} finally {
  observer.disconnect();
  await Promise.allSettled(
    [...Object.values(gateways), ...Object.values(injectedGateways)].map((gateway) =>
      gateway.close(),
    ),
  );
  redis.stop();
  await upstream.close();
}

const format = (value, width = 8) => value.toFixed(1).padStart(width);
const rows = names.map((name) => {
  const cpu = samples[name].map((sample) => sample.cpuUsPerRequest);
  const perSecond = samples[name].map((sample) => sample.perSecond);
  // Added cost per round against the same round's no-limits figure, then the median of those.
  const added = cpu.map((value, index) => value - samples.off[index].cpuUsPerRequest);
  const redisCallsPer1000 =
    (median(samples[name].map((sample) => sample.redisCalls)) * 1000) / requests;
  return {
    name,
    cpu: median(cpu),
    perSecond: median(perSecond),
    added: median(added),
    redisCallsPer1000,
    cpuRounds: cpu,
    perSecondRounds: perSecond,
  };
});
process.stdout.write(
  `limiter cost: ${rounds} rounds x ${requests} chat completions per variant, ${parallel} at a time (stub upstream; gateway and client in one process, redis-server's own CPU not counted)\n`,
);
process.stdout.write(
  'variant       CPU us/req  added us/req      req/s  vs off  Redis calls/1000 req  CPU us/req of each round\n',
);
const base = rows[0];
for (const row of rows) {
  process.stdout.write(
    `${row.name.padEnd(12)} ${format(row.cpu)}  ${format(row.added, 12)}  ${format(row.perSecond, 9)}  ${(row.perSecond / base.perSecond).toFixed(2)}x  ${format(row.redisCallsPer1000, 20)}  ${row.cpuRounds.map((value) => value.toFixed(0)).join(' ')}\n`,
  );
}
const injectedRows = names.map((name) => {
  const cpu = injected[name].map((sample) => sample.cpuUsPerRequest);
  return {
    name,
    cpu: median(cpu),
    added: median(cpu.map((value, index) => value - injected.off[index].cpuUsPerRequest)),
    cpuRounds: cpu,
  };
});
process.stdout.write(
  `without sockets (Fastify inject, upstream in process), ${rounds} rounds x ${requests * 2}:\n`,
);
for (const row of injectedRows) {
  process.stdout.write(
    `${row.name.padEnd(12)} ${format(row.cpu)}  ${format(row.added, 12)}   ${row.cpuRounds.map((value) => value.toFixed(0)).join(' ')}\n`,
  );
}
process.stdout.write(
  `store alone (acquire + settle, ${parallel} in flight), CPU us per request: memory ${stores.memory.toFixed(2)}, redis ${stores.redis.toFixed(2)}, redis-exact ${stores['redis-exact'].toFixed(2)}\n`,
);
process.stdout.write(
  `${JSON.stringify({ bench: 'limiter-cost', requests, rounds, parallel, rows, injected: injectedRows, storeAlone: stores })}\n`,
);
