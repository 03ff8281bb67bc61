// The node-server CLI's start cost with and without Redis and tracing configured: time from spawn to the
// listening banner and the resident memory (VmRSS) once listening, medians of several runs. Figures only:
// compare them within one run on one machine. Usage: node bench/start-cost.mjs [path/to/main.js] [runs]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const main =
  process.argv[2] ??
  fileURLToPath(new URL('../../../apps/node-server/dist/main.js', import.meta.url));
const runs = Number(process.argv[3] ?? 5);

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startRedis() {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  await new Promise((resolve) =>
    child.stdout.on('data', (text) => String(text).includes('Ready to accept') && resolve()),
  );
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

function configFile(directory, name, extra) {
  const file = join(directory, `${name}.yaml`);
  // A network upstream (never reached here), so the embedded local backend is not loaded.
  writeFileSync(
    file,
    [
      'keys: ["bench-key"]',
      'upstreams:',
      '  - name: a',
      '    url: http://127.0.0.1:9',
      '    protocol: openai',
      '    models: { alpha36-35b-a3b-instruct: served }',
      ...extra,
      '',
    ].join('\n'),
  );
  return file;
}

async function startOnce(config) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [main, '--config', config, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  let output = '';
  const bannerMs = await new Promise((resolve, reject) => {
    child.stdout.on('data', (text) => {
      output += text;
      if (output.includes('listening on')) resolve(performance.now() - started);
    });
    child.stderr.on('data', (text) => (output += text));
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]);
  child.kill('SIGINT');
  await new Promise((resolve) => child.once('exit', resolve));
  return { bannerMs, rssMb: rssKb / 1024 };
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];

const directory = mkdtempSync(join(tmpdir(), 'start-cost-'));
const redis = await startRedis();
const cases = {
  plain: configFile(directory, 'plain', []),
  'redis+tracing': configFile(directory, 'full', [
    `redis: { url: "${redis.url}" }`,
    'tracing: { otlp_endpoint: "http://127.0.0.1:9" }',
  ]),
};
try {
  for (const [name, config] of Object.entries(cases)) {
    const results = [];
    for (let run = 0; run < runs; run += 1) results.push(await startOnce(config));
    process.stdout.write(
      `${name.padEnd(14)} time to banner ${median(results.map((r) => r.bannerMs)).toFixed(0)} ms, RSS ${median(results.map((r) => r.rssMb)).toFixed(1)} MB (median of ${runs})` +
        '\n',
    );
  }
} finally {
  redis.stop();
}
