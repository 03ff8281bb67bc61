// Cost per request of key limits (issue 11): the same gateway and upstream, with the limiter off (a key
// without limits), the in-memory store, and the Redis store (a real redis-server on a free loopback
// port), in one run. Each variant: warm-up, then N sequential requests (latency per request) and N
// requests 16 at a time (throughput). Run after a build: `pnpm --filter @infergate/node-server bench`.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setTimeout as delay } from 'node:timers/promises';
import { resolveGatewayConfig } from '@infergate/core';
import { buildServer } from '../dist/index.js';

const requests = Number(process.env.BENCH_REQUESTS ?? 3000);
const parallel = 16;
const embedding = JSON.stringify({ object: 'list', data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2, 0.3, 0.4] }], model: 'gamma-m3', usage: { prompt_tokens: 2, total_tokens: 2 } });

async function listen(server) {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server.address().port;
}

async function startUpstream() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(embedding) });
      response.end(embedding);
    });
  });
  return { url: `http://127.0.0.1:${await listen(server)}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function startRedis() {
  const probe = createServer();
  const port = await listen(probe);
  probe.close();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.on('error', (error) => {
    process.stderr.write(`redis-server could not start (${error.message}); install it: apt-get install -y redis-server\n`);
    process.exit(1);
  });
  let output = '';
  for await (const chunk of child.stdout) {
    output += chunk;
    if (output.includes('Ready to accept connections')) break;
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

const limits = { requests_per_minute: 100_000_000, tokens_per_minute: 1_000_000_000, concurrent_requests: 1000 };

async function startGateway(upstreamUrl, variant, redisUrl) {
  const key = { key: 'bench-key-0123456789', name: 'bench', ...(variant === 'off' ? {} : { limits }) };
  const file = {
    upstreams: [{ name: 'stub', url: upstreamUrl, protocol: 'openai', models: { 'gamma-m3': 'gamma-m3' } }],
    keys: [key],
    metrics: { enabled: false },
    docs: { enabled: false },
    ...(variant === 'redis' ? { redis: { url: redisUrl } } : {}),
  };
  const server = await buildServer(resolveGatewayConfig(file, {}));
  const baseUrl = await server.app.listen({ host: '127.0.0.1', port: 0 });
  return { baseUrl, close: () => server.close(100) };
}

async function send(baseUrl) {
  const response = await globalThis.fetch(`${baseUrl}/v1/embeddings`, {
    method: 'POST',
    headers: { authorization: 'Bearer bench-key-0123456789', 'content-type': 'application/json' },
    body: '{"model":"gamma-m3","input":"hello"}',
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`status ${response.status}`);
}

async function run(baseUrl, count, concurrency) {
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      next += 1;
      await send(baseUrl);
    }
  }));
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { usPerRequest: (elapsedMs * 1000) / count, cpuUsPerRequest: (cpu.user + cpu.system) / count, perSecond: count / (elapsedMs / 1000) };
}

const upstream = await startUpstream();
const redis = await startRedis();
const rows = [];
try {
  for (const variant of ['off', 'memory', 'redis']) {
    const gateway = await startGateway(upstream.url, variant, redis.url);
    // Warm-up: JIT, keep-alive connections, the Redis connection and its script cache.
    await delay(200);
    await run(gateway.baseUrl, 500, 4);
    const sequential = await run(gateway.baseUrl, requests, 1);
    const concurrent = await run(gateway.baseUrl, requests, parallel);
    rows.push({ variant, sequential, concurrent });
    await gateway.close();
  }
} finally {
  redis.stop();
  await upstream.close();
}

const base = rows[0];
const format = (value) => value.toFixed(1).padStart(8);
process.stdout.write(`limiter cost, ${requests} requests per measure (POST /v1/embeddings, stub upstream; gateway and client in one process)\n`);
process.stdout.write('variant   latency us/req  (+ vs off)  CPU us/req  (+ vs off)  req/s @16  (vs off)\n');
for (const row of rows) {
  process.stdout.write(
    `${row.variant.padEnd(8)} ${format(row.sequential.usPerRequest)}      ${format(row.sequential.usPerRequest - base.sequential.usPerRequest)}  ${format(row.concurrent.cpuUsPerRequest)}  ${format(row.concurrent.cpuUsPerRequest - base.concurrent.cpuUsPerRequest)}  ${format(row.concurrent.perSecond)}  ${(row.concurrent.perSecond / base.concurrent.perSecond).toFixed(2)}x\n`,
  );
}
process.stdout.write(`${JSON.stringify({ bench: 'limiter-cost', requests, rows })}\n`);
