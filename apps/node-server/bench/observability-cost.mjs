// What metrics and tracing cost the node-server: non-streaming chat completions against four gateways
// (metrics off/on x tracing off/on) in one run, interleaved round by round, all in front of one local
// upstream stub and one OTLP sink that discards what it gets. Prints requests per second and gateway
// CPU per request for each. `node bench/observability-cost.mjs [requests per round] [rounds] [concurrency]`.
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import {
  benchModel as model,
  createChatLoad,
  listen,
  median,
  startChatStub,
} from './chat-bench-load.mjs';

const [requestsPerRound = 2000, rounds = 8, concurrency = 16] = process.argv.slice(2).map(Number);
const apiKey = 'bench-key-0123456789abcdef';

const { url: upstreamUrl, server: upstream } = await startChatStub();
const otlpSink = createServer((incoming, response) => {
  incoming.resume();
  incoming.on('end', () =>
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
  );
});
const otlpUrl = await listen(otlpSink);

const variants = [
  { name: 'metrics off, tracing off', file: { metrics: { enabled: false } } },
  { name: 'metrics on,  tracing off', file: {} },
  {
    name: 'metrics off, tracing on ',
    file: { metrics: { enabled: false }, tracing: { otlp_endpoint: otlpUrl } },
  },
  { name: 'metrics on,  tracing on ', file: { tracing: { otlp_endpoint: otlpUrl } } },
];

const target = fileURLToPath(new URL('./observability-target.mjs', import.meta.url));
for (const variant of variants) {
  variant.child = fork(target, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  variant.child.send({
    ...variant.file,
    upstreams: [
      { name: 'stub', url: upstreamUrl, protocol: 'openai', models: { [model]: 'served' } },
    ],
  });
  variant.address = await new Promise((resolve) =>
    variant.child.once('message', (message) => resolve(message.address)),
  );
  variant.results = [];
}

const ask = (child) =>
  new Promise((resolve) => {
    child.once('message', (message) => resolve(message.cpu));
    child.send('cpu');
  });

const { load, close: closeLoad } = createChatLoad(apiKey, concurrency);

// Warm-up: JIT, connection pools, the first document of each kind.
for (const variant of variants) await load(variant.address, 500);

// Round by round, each round in a rotated order, so drift in the machine's load spreads over all four.
for (let round = 0; round < rounds; round += 1) {
  for (const variant of [
    ...variants.slice(round % variants.length),
    ...variants.slice(0, round % variants.length),
  ]) {
    const cpuBefore = await ask(variant.child);
    const started = process.hrtime.bigint();
    await load(variant.address, requestsPerRound);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpuAfter = await ask(variant.child);
    const cpuMicros = cpuAfter.user - cpuBefore.user + (cpuAfter.system - cpuBefore.system);
    variant.results.push({
      rps: requestsPerRound / seconds,
      cpuPerRequest: cpuMicros / requestsPerRound,
    });
  }
}

const baseline = variants[0];
const baseRps = median(baseline.results.map((result) => result.rps));
const baseCpu = median(baseline.results.map((result) => result.cpuPerRequest));
process.stdout.write(
  `observability cost: ${rounds} rounds x ${requestsPerRound} non-streaming chat requests, concurrency ${concurrency}, Node ${process.version}; medians\n`,
);
for (const variant of variants) {
  const rps = median(variant.results.map((result) => result.rps));
  const cpu = median(variant.results.map((result) => result.cpuPerRequest));
  process.stdout.write(
    `  ${variant.name}  ${rps.toFixed(0).padStart(6)} req/s (${((rps / baseRps - 1) * 100).toFixed(1).padStart(5)} %)  ${cpu.toFixed(0).padStart(5)} us CPU/request (${((cpu / baseCpu - 1) * 100).toFixed(1).padStart(5)} %)\n`,
  );
}

await Promise.all(
  variants.map(
    (variant) =>
      new Promise((resolve) => {
        variant.child.once('exit', resolve);
        variant.child.send('stop');
      }),
  ),
);
closeLoad();
upstream.close();
otlpSink.close();
