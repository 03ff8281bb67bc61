// Starting the stub, the floor proxy and infergate as separate processes on their cores.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { undici } from './load-undici.mjs';
import { chatModel, embeddingModel, imageEditModel, longStreamModel } from './payloads.mjs';
import { firstLine, freePort, startNode } from './processes.mjs';
import { sleep } from './stats.mjs';
import process from 'node:process';

const benchDirectory = dirname(fileURLToPath(import.meta.url));

// The V8 settings infergate itself runs with (docs/performance.md), for the stub and the floor, so that
// the ratios measure the gateway's work and not a difference in V8's settings: with pretenuring on, the
// floor settled early in each run into one of two speeds, and every ratio to it became a coin toss.
const steadyV8 = ['--no-allocation-site-pretenuring', '--heap-growing-percent=300'];

/** The stub listens on 4 ports: 4 upstream origins give infergate 4 x 256 connections for 1,000 streams. */
export async function startStub({ workDirectory, longChunks, longIntervalMs }) {
  const entry = startNode({
    name: 'stub',
    args: [
      ...steadyV8,
      join(benchDirectory, 'stub-upstream.mjs'),
      '4',
      String(longChunks),
      String(longIntervalMs),
    ],
    logFile: join(workDirectory, 'stub.log'),
    stdoutPipe: true,
  });
  const { ports } = JSON.parse(await firstLine(entry));
  return { ...entry, ports };
}

export async function startFloor({ workDirectory, upstreamOrigin, core }) {
  const port = await freePort();
  const statsFile = join(workDirectory, 'floor-stats.json');
  const entry = startNode({
    name: 'floor',
    args: [...steadyV8, join(benchDirectory, 'floor-proxy.mjs'), upstreamOrigin],
    env: { PORT: String(port), BENCH_STATS_FILE: statsFile },
    core,
    logFile: join(workDirectory, 'floor.log'),
    stdoutPipe: true,
  });
  await firstLine(entry);
  return { ...entry, name: 'floor', origin: `http://127.0.0.1:${port}`, statsFile };
}

/** infergate's config file: the stub behind every model the scenarios use (docs/design.md "Configuration file"). */
export function writeInfergateConfig(workDirectory, stubPorts, extra = {}, fileTag = 'infergate') {
  const origin = (port) => `http://127.0.0.1:${port}`;
  const config = {
    upstreams: [
      {
        name: 'stub-0',
        url: origin(stubPorts[0]),
        protocol: 'openai',
        models: {
          [chatModel]: 'stub-model',
          [embeddingModel]: 'stub-embed',
          [longStreamModel]: 'stub-long',
        },
      },
      ...stubPorts.slice(1).map((port, index) => ({
        name: `stub-${index + 1}`,
        url: origin(port),
        protocol: 'openai',
        models: { [longStreamModel]: 'stub-long' },
      })),
      {
        name: 'stub-images',
        url: origin(stubPorts[0]),
        protocol: 'images',
        models: { [imageEditModel]: 'stub-image-edit' },
      },
    ],
  };
  Object.assign(config, extra);
  const file = join(workDirectory, `${fileTag}-config.json`);
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

async function waitReady(origin, entry, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (entry.exited) throw new Error(`infergate exited at start: see ${entry.logFile}`);
    try {
      const response = await undici.request(`${origin}/healthz`);
      await response.body.dump();
      if (response.statusCode === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`infergate not ready after ${timeoutMs} ms: see ${entry.logFile}`);
}

/**
 * infergate from apps/node-server/dist through infergate-entry.mjs; `nodeFlags` such as --cpu-prof, by
 * default BENCH_NODE_FLAGS split on spaces (such as --trace-gc, whose lines go to infergate.log).
 * `checkout` names another built copy of the repository whose infergate to start (compare-builds.mjs);
 * `env` adds variables to its environment.
 */
export async function startInfergate({
  workDirectory,
  stubPorts,
  apiKey,
  core,
  nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
  fileTag = 'infergate',
  logLevel = process.env.BENCH_LOG_LEVEL ?? 'info',
  checkout = join(benchDirectory, '..', '..', '..'),
  env: extraEnv = {},
}) {
  const port = await freePort();
  const statsFile = join(workDirectory, `${fileTag}-stats.json`);
  const logFile = join(workDirectory, `${fileTag}.log`);
  const env = {
    HOST: '127.0.0.1',
    PORT: String(port),
    INFERGATE_API_KEYS: apiKey,
    // BENCH_CONFIG: sections added to this build's config file (virtual_models, prices...).
    INFERGATE_CONFIG: writeInfergateConfig(
      workDirectory,
      stubPorts,
      extraEnv.BENCH_CONFIG === undefined ? {} : JSON.parse(extraEnv.BENCH_CONFIG),
      fileTag,
    ),
    BENCH_STATS_FILE: statsFile,
    LOG_LEVEL: logLevel,
    NODE_ENV: 'production',
    ...extraEnv,
  };
  const entryFile = join(checkout, 'packages', 'testkit', 'bench', 'infergate-entry.mjs');
  const entry = startNode({
    name: 'infergate',
    args: [...nodeFlags, entryFile],
    env,
    core,
    logFile,
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitReady(origin, {
    ...entry,
    logFile,
    get exited() {
      return entry.exited;
    },
  });
  return Object.assign(entry, { origin, statsFile, logFile });
}
