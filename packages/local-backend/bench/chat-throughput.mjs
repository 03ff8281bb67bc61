/* global process, fetch, performance, console, Request -- a Node 20 script; the root ESLint config declares no globals for .mjs */
// Requests per second of non-streamed chat completions against the built node listener over loopback HTTP.
// Run by hand: `pnpm --filter @infergate/local-backend bench` (builds first). Prints figures; asserts nothing.
// BENCH_URL=http://127.0.0.1:8000 measures a server started separately (`pnpm start`), so client and server
// do not share a CPU core. Also measures the Web handler called in process, as the gateway can call it.
import { createLocalBackend } from '../dist/index.js';
import { startLocalBackendServer } from '../dist/node.js';

const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 5000);
const body = JSON.stringify({
  model: 'alpha36-35b-a3b-instruct',
  messages: [
    {
      role: 'user',
      content: 'Summarise the benefits of running a local model server for development.',
    },
  ],
  max_tokens: 64,
});

const server =
  process.env.BENCH_URL === undefined ? await startLocalBackendServer({ port: 0 }) : undefined;
const url = `${process.env.BENCH_URL ?? server?.url}/v1/chat/completions`;
const call = async () => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  if (response.status !== 200) throw new Error(`status ${response.status}`);
  await response.json();
};

// Warm-up: loads the tokenizer and JIT-compiles the hot paths.
for (let index = 0; index < 200; index += 1) await call();

let completed = 0;
const latencies = [];
const cpuBefore = process.cpuUsage();
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (performance.now() - started < durationMs) {
      const begin = performance.now();
      await call();
      latencies.push(performance.now() - begin);
      completed += 1;
    }
  }),
);
const elapsed = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
await server?.close();

latencies.sort((left, right) => left - right);
const percentile = (p) =>
  latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(2);
const where =
  server === undefined ? `server at ${process.env.BENCH_URL}` : 'client and server in one process';
console.log(
  `non-streamed chat completions over HTTP, max_tokens 64, concurrency ${concurrency}, ${elapsed.toFixed(1)} s, ${where}`,
);
console.log(`  ${(completed / elapsed).toFixed(0)} req/s  (${completed} requests)`);
console.log(`  latency p50 ${percentile(50)} ms, p99 ${percentile(99)} ms`);
console.log(
  `  this process's CPU per request ${((cpu.user + cpu.system) / 1000 / completed).toFixed(3)} ms`,
);

const handler = createLocalBackend();
const inProcessStarted = performance.now();
let inProcess = 0;
while (performance.now() - inProcessStarted < durationMs) {
  const response = await handler(
    new Request('http://local/v1/chat/completions', { method: 'POST', body }),
  );
  await response.json();
  inProcess += 1;
}
console.log(
  `in-process Web handler, one at a time: ${(inProcess / ((performance.now() - inProcessStarted) / 1000)).toFixed(0)} req/s`,
);
