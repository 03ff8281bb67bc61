// What metrics and tracing cost the node-server: non-streaming chat completions against four gateways
// (metrics off/on x tracing off/on) in one run, interleaved round by round, all in front of one local
// upstream stub and one OTLP sink that discards what it gets. Prints requests per second and gateway
// CPU per request for each. `node bench/observability-cost.mjs [requests per round] [rounds] [concurrency]`.
import { fork } from 'node:child_process';
import { Agent, createServer, request as httpRequest } from 'node:http';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { Buffer } from 'node:buffer';

const [requestsPerRound = 2000, rounds = 8, concurrency = 16] = process.argv.slice(2).map(Number);
const apiKey = 'bench-key-0123456789abcdef';
const model = 'alpha36-35b-a3b-instruct';

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
}

// vLLM's chat completion shape (shared/ref/protocols.md), a fixed short answer.
const completion = JSON.stringify({
  id: 'chatcmpl-0123456789abcdef0123456789abcdef', object: 'chat.completion', created: 1767225600, model: 'served',
  choices: [{ index: 0, message: { role: 'assistant', content: 'One, two, three.', tool_calls: [], reasoning: null }, logprobs: null, finish_reason: 'stop', stop_reason: null }],
  usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13, prompt_tokens_details: null },
});
const upstream = createServer((incoming, response) => {
  incoming.resume();
  incoming.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(completion));
});
const otlpSink = createServer((incoming, response) => {
  incoming.resume();
  incoming.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
const upstreamUrl = await listen(upstream);
const otlpUrl = await listen(otlpSink);

const variants = [
  { name: 'metrics off, tracing off', file: { metrics: { enabled: false } } },
  { name: 'metrics on,  tracing off', file: {} },
  { name: 'metrics off, tracing on ', file: { metrics: { enabled: false }, tracing: { otlp_endpoint: otlpUrl } } },
  { name: 'metrics on,  tracing on ', file: { tracing: { otlp_endpoint: otlpUrl } } },
];

const target = fileURLToPath(new URL('./observability-target.mjs', import.meta.url));
for (const variant of variants) {
  variant.child = fork(target, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  variant.child.send({ ...variant.file, upstreams: [{ name: 'stub', url: upstreamUrl, protocol: 'openai', models: { [model]: 'served' } }] });
  variant.address = await new Promise((resolve) => variant.child.once('message', (message) => resolve(message.address)));
  variant.results = [];
}

const ask = (child) => new Promise((resolve) => {
  child.once('message', (message) => resolve(message.cpu));
  child.send('cpu');
});

const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Count to three.' }], max_tokens: 16 });
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

function post(address) {
  return new Promise((resolve, reject) => {
    const call = httpRequest(`${address}/v1/chat/completions`, { method: 'POST', agent, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`status ${response.statusCode}`))));
    });
    call.on('error', reject);
    call.end(body);
  });
}

async function load(address, count) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      await post(address);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

// Warm-up: JIT, connection pools, the first document of each kind.
for (const variant of variants) await load(variant.address, 500);

// Round by round, each round in a rotated order, so drift in the machine's load spreads over all four.
for (let round = 0; round < rounds; round += 1) {
  for (const variant of [...variants.slice(round % variants.length), ...variants.slice(0, round % variants.length)]) {
    const cpuBefore = await ask(variant.child);
    const started = process.hrtime.bigint();
    await load(variant.address, requestsPerRound);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpuAfter = await ask(variant.child);
    const cpuMicros = cpuAfter.user - cpuBefore.user + (cpuAfter.system - cpuBefore.system);
    variant.results.push({ rps: requestsPerRound / seconds, cpuPerRequest: cpuMicros / requestsPerRound });
  }
}

const median = (values) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)];
};
const baseline = variants[0];
const baseRps = median(baseline.results.map((result) => result.rps));
const baseCpu = median(baseline.results.map((result) => result.cpuPerRequest));
process.stdout.write(`observability cost: ${rounds} rounds x ${requestsPerRound} non-streaming chat requests, concurrency ${concurrency}, Node ${process.version}; medians\n`);
for (const variant of variants) {
  const rps = median(variant.results.map((result) => result.rps));
  const cpu = median(variant.results.map((result) => result.cpuPerRequest));
  process.stdout.write(`  ${variant.name}  ${rps.toFixed(0).padStart(6)} req/s (${((rps / baseRps - 1) * 100).toFixed(1).padStart(5)} %)  ${cpu.toFixed(0).padStart(5)} us CPU/request (${((cpu / baseCpu - 1) * 100).toFixed(1).padStart(5)} %)\n`);
}

await Promise.all(variants.map((variant) => new Promise((resolve) => {
  variant.child.once('exit', resolve);
  variant.child.send('stop');
})));
agent.destroy();
upstream.close();
otlpSink.close();
