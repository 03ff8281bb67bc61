// `pnpm bench`: direct, floor and infergate measured side by side in one run.
//   node bench/run-bench.mjs [--quick] [--only=1,2,...] [--profile] [--no-build] [--verbose] [--guard=0.5]
// See README.md in this folder for what each scenario measures and how to read the tables.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureAuthRejections } from './auth-timing.mjs';
import {
  measureFixedRate,
  measureImageBodies,
  measureLongStreams,
  measureThroughput,
} from './measure.mjs';
import { measureLimiter } from './measure-limiter.mjs';
import { buildOpenLoop } from './open-loop-load.mjs';
import {
  chatRequestBody,
  imageEditFormBody,
  imageEditRequestBody,
  longStreamModel,
} from './payloads.mjs';
import { killAllNow, planCores, stopAll, stopProcess } from './processes.mjs';
import {
  authTable,
  evaluateTargets,
  imageTable,
  longStreamsTable,
  targetsTable,
  throughputTable,
} from './report.mjs';
import { runProfile } from './run-profile.mjs';
import {
  benchApiKey as apiKey,
  benchHeaders as headers,
  throughputScenarios,
} from './scenarios.mjs';
import { startFloor, startInfergate, startStub } from './start-targets.mjs';
import { ensureWrk } from './wrk-load.mjs';
import { guardRatios, guardTable, guardVerdict, remeasureRatio } from './guard-ratios.mjs';
import process from 'node:process';

const benchDirectory = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = join(benchDirectory, '..', '..', '..');
const resultsDirectory = join(benchDirectory, '..', 'bench-results');

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const quick = args.includes('--quick');
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
  .map(Number);
// CI's regression guard: exit 1 when a scenario's infergate / floor req/s is below this (guard-ratios.mjs).
const guardArgument = args.find((arg) => arg.startsWith('--guard='));
const guard =
  guardArgument === undefined ? undefined : Number(guardArgument.slice('--guard='.length));
if (guard !== undefined && !(guard > 0))
  throw new Error(`--guard needs a ratio above 0, such as --guard=0.5 (got ${guardArgument})`);
// With --guard (the end of `pnpm test`) the run's lines, tables and targets go to bench.log in its work
// folder, and the terminal gets the guard's verdict only: one line on a pass, the guard's table and the
// failing scenarios on a failure (guardVerdict). Without it, everything is printed as it is measured.
let logFile;
const say = (line) => process.stdout.write(`${line}\n`);
const log = (line) => (logFile === undefined ? say(line) : appendFileSync(logFile, `${line}\n`));

const settings = quick
  ? {
      runs: 1,
      // 2 s, not 1: chat is measured first, right after infergate starts, and after 1 s of warm-up it was
      // still being optimised, far below what the guard measured again later.
      warmSeconds: 2,
      seconds: 1,
      fixedSeconds: 1,
      fixedRateScenarios: [1, 2],
      connections: 64,
      longStreams: 200,
      longChunks: 30,
      longIntervalMs: 100,
      imageConcurrent: 20,
      authPerKey: 2_000,
      authWarmup: 200,
    }
  : {
      runs: 3,
      warmSeconds: 2,
      seconds: 5,
      fixedSeconds: 3,
      fixedRateScenarios: [1, 2, 3, 4, 10],
      connections: 64,
      longStreams: 1_000,
      longChunks: 600,
      longIntervalMs: 100,
      imageConcurrent: 20,
      authPerKey: 20_000,
      authWarmup: 1_000,
    };
settings.verbose = args.includes('--verbose');
const wanted = (id) => only === undefined || only.includes(id);

// Scenario 9 runs in a child of its own: --expose-gc and a young generation large enough that the
// allocation window sees no collection, without either reaching the other scenarios.
function measureSseParsers(workDirectory) {
  const file = join(workDirectory, 'sse-parsers.json');
  const script = join(benchDirectory, 'sse-parsers.mjs');
  const output = execFileSync(
    process.execPath,
    [
      '--expose-gc',
      '--max-semi-space-size=64',
      script,
      ...(quick ? ['--quick'] : []),
      `--json=${file}`,
    ],
    {
      stdio: ['ignore', logFile === undefined ? 'inherit' : 'pipe', 'inherit'],
      encoding: 'utf8',
      timeout: 900_000,
    },
  );
  if (logFile !== undefined) appendFileSync(logFile, output);
  return JSON.parse(readFileSync(file, 'utf8'));
}

function buildInfergate() {
  if (
    args.includes('--no-build') &&
    existsSync(join(repositoryRoot, 'apps', 'node-server', 'dist', 'main.js'))
  ) {
    log('--no-build: measuring the existing apps/node-server/dist');
    return;
  }
  // turbo's bench task builds testkit and its dependencies, not the app: build it (a cache hit when unchanged).
  log('building @infergate/node-server and its dependencies (turbo, cached)');
  try {
    const output = execFileSync(
      'pnpm',
      [
        'exec',
        'turbo',
        'run',
        'build',
        '--filter=@infergate/node-server...',
        '--output-logs=errors-only',
      ],
      {
        cwd: repositoryRoot,
        stdio: ['ignore', logFile === undefined ? 'inherit' : 'pipe', 'inherit'],
        encoding: 'utf8',
        timeout: 300_000,
      },
    );
    if (logFile !== undefined) appendFileSync(logFile, output);
  } catch (error) {
    // With --guard turbo's output was kept: a failed build shows it, as it does without.
    if (logFile !== undefined && error.stdout) process.stdout.write(error.stdout);
    if (!existsSync(join(repositoryRoot, 'apps', 'node-server', 'dist', 'main.js'))) throw error;
    const warning =
      'WARNING: the build failed (see above); measuring the apps/node-server/dist already there, which may be stale';
    log(warning);
    if (logFile !== undefined) say(warning);
  }
  if (!existsSync(join(repositoryRoot, 'apps', 'node-server', 'dist', 'main.js')))
    throw new Error('apps/node-server/dist/main.js is missing after the build');
}

async function main() {
  const started = Date.now();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const workDirectory = join(resultsDirectory, `work-${stamp}`);
  mkdirSync(workDirectory, { recursive: true });
  settings.workDirectory = workDirectory;
  if (guard !== undefined) logFile = join(workDirectory, 'bench.log');

  buildInfergate();
  const cores = availableParallelism();
  const layout = planCores(cores);
  const serverScenarios = [1, 2, 3, 4, 5, 6, 7, 10].some(wanted);
  settings.generator = serverScenarios ? ensureWrk(log) : 'none';
  settings.openLoop = serverScenarios ? buildOpenLoop(workDirectory, log) : undefined;
  log(
    `cores: ${cores}; ${layout.pinned ? 'proxy under test on core 0; generator, wrk and stub on core 1 (taskset)' : `not pinned (${layout.reason})`}`,
  );
  log(
    `load generator: ${settings.generator === 'wrk' ? 'wrk -t1 -c' + settings.connections : 'undici closed loop, ' + settings.connections + ' connections'}; fixed-rate: ${settings.openLoop === undefined ? 'undici' : 'open-loop.c'}; stream clients: undici`,
  );
  log(
    `mode: ${quick ? 'quick (1 run per figure, short durations)' : 'full (median of 3 runs)'}; logs and configs in ${workDirectory}`,
  );

  const results = {
    startedAt: new Date(started).toISOString(),
    quick,
    node: process.version,
    cores,
    layout,
    generator: settings.generator,
    fixedRateGenerator: settings.openLoop === undefined ? 'undici' : 'open-loop.c',
    settings: { ...settings, workDirectory: undefined, openLoop: undefined },
    scenarios: [],
  };
  if (wanted(9) && !args.includes('--profile')) {
    log('\n== 9. SSE parsers: ours against eventsource-parser, in one process (no servers)');
    results.scenarios.push({
      id: 9,
      title: 'SSE parsers, ns and bytes per event',
      sseParsers: measureSseParsers(workDirectory),
    });
    if (!serverScenarios && !wanted(8)) {
      writeFileSync(
        join(resultsDirectory, `bench-sse-parsers-${stamp}.json`),
        `${JSON.stringify(results, null, 2)}\n`,
      );
      return;
    }
  }

  if (args.includes('--profile')) {
    await runProfile({
      settings,
      layout,
      workDirectory,
      resultsDirectory,
      headers,
      apiKey,
      scenarios: throughputScenarios.filter((scenario) => wanted(scenario.id)),
      log,
    });
    return;
  }

  // Scenario 8 runs its own processes: the stub and the proxies start only for the others.
  const needsProxies = [1, 2, 3, 4, 5, 6, 7, 10].some(wanted);
  const stub = needsProxies
    ? await startStub({
        workDirectory,
        longChunks: settings.longChunks,
        longIntervalMs: settings.longIntervalMs,
      })
    : { ports: [0] };
  const direct = { name: 'direct', origin: `http://127.0.0.1:${stub.ports[0]}` };
  let floor = needsProxies
    ? await startFloor({ workDirectory, upstreamOrigin: direct.origin, core: layout.proxyCore })
    : undefined;
  let infergate = needsProxies
    ? await startInfergate({ workDirectory, stubPorts: stub.ports, apiKey, core: layout.proxyCore })
    : undefined;
  const targets = [direct, floor, infergate];
  // Memory scenarios start from fresh proxies: a heap grown by the throughput runs would hide their own peak.
  let generation = 0;
  const restartProxies = async () => {
    await Promise.all([stopProcess(floor), stopProcess(infergate)]);
    generation += 1;
    floor = await startFloor({
      workDirectory,
      upstreamOrigin: direct.origin,
      core: layout.proxyCore,
    });
    infergate = await startInfergate({
      workDirectory,
      stubPorts: stub.ports,
      apiKey,
      core: layout.proxyCore,
      fileTag: `infergate-${generation}`,
    });
  };

  for (const scenario of throughputScenarios.filter((entry) => wanted(entry.id))) {
    log(`\n== ${scenario.id}. ${scenario.title}`);
    const entry = {
      id: scenario.id,
      title: scenario.title,
      targets: targets.map((target) => ({ name: target.name })),
    };
    const peaks = await measureThroughput(settings, targets, scenario, headers);
    for (const [index, target] of targets.entries()) {
      const peak = peaks[index];
      entry.targets[index].throughput = peak;
      log(
        `  ${target.name}: ${peak.failed ? `FAILED ${peak.failed}` : `${Math.round(peak.rps)} req/s, p99 ${peak.p99.toFixed(2)} ms, errors ${peak.errors}`}`,
      );
    }
    const infergatePeak = entry.targets[2].throughput.rps;
    if (settings.fixedRateScenarios.includes(scenario.id) && Number.isFinite(infergatePeak)) {
      const rate = Math.max(10, Math.round(infergatePeak / 2));
      const measured = targets.filter((_target, index) => !entry.targets[index].throughput.failed);
      const latencies = await measureFixedRate(settings, measured, scenario, headers, rate);
      for (const [index, target] of measured.entries())
        entry.targets[targets.indexOf(target)].fixedRate = latencies[index];
    }
    results.scenarios.push(entry);
    log(throughputTable(entry));
  }

  if (guard !== undefined && needsProxies) {
    log(`\n== Guard: infergate / floor req/s >= ${guard} for every scenario measured`);
    const rows = await guardRatios({
      bound: guard,
      entries: results.scenarios.filter((entry) =>
        throughputScenarios.some((scenario) => scenario.id === entry.id),
      ),
      scenarios: throughputScenarios,
      remeasure: (scenario) => remeasureRatio(settings, floor, infergate, scenario, headers),
      log,
    });
    results.guard = { bound: guard, rows, met: rows.length > 0 && rows.every((row) => row.met) };
    log(guardTable(rows, guard));
  }

  if (wanted(5)) {
    const seconds = (settings.longChunks * settings.longIntervalMs) / 1000;
    log(
      `\n== 5. ${settings.longStreams} concurrent long streams (${settings.longChunks} chunks, ${settings.longIntervalMs} ms apart: ${seconds} s each)`,
    );
    const scenario = { path: '/v1/chat/completions', body: chatRequestBody(true, longStreamModel) };
    await restartProxies();
    const entry = {
      id: 5,
      title: `${settings.longStreams} concurrent long streams, ${seconds} s`,
      targets: [],
    };
    for (const target of [floor, infergate]) {
      entry.targets.push({
        name: target.name,
        longStreams: await measureLongStreams(settings, target, scenario, headers, log),
      });
      log(`  ${target.name}: done`);
    }
    results.scenarios.push(entry);
    log(longStreamsTable(entry));
  }

  if (wanted(6)) {
    const body = imageEditRequestBody(50 * 1_048_576);
    // The same 50 MiB as the multipart form the official clients send: the gateway writes the file
    // into its data URL as it arrives.
    const form = imageEditFormBody(50 * 1_048_576);
    log(
      `\n== 6. image edit with a 50 MiB data-URL body (request ${(body.length / 1_048_576).toFixed(1)} MiB), then ${settings.imageConcurrent} at once; the same as a 50 MiB multipart form`,
    );
    await restartProxies();
    const entry = {
      id: 6,
      title: 'image edit, 50 MiB data-URL body and multipart form',
      targets: [],
    };
    for (const target of [floor, infergate])
      entry.targets.push({
        name: target.name,
        imageBodies: await measureImageBodies(settings, target, headers, body),
        imageForms: await measureImageBodies(
          settings,
          target,
          headers,
          form.body,
          form.contentType,
        ),
      });
    results.scenarios.push(entry);
    log(imageTable(entry));
    log(imageTable(entry, 'imageForms'));
  }

  if (wanted(7)) {
    log(
      `\n== 7. authentication rejections: ${settings.authPerKey.toLocaleString('en-US')} per wrong key, interleaved, one connection`,
    );
    const auth = await measureAuthRejections({
      origin: infergate.origin,
      realKey: apiKey,
      perKey: settings.authPerKey,
      warmup: settings.authWarmup,
    });
    const entry = {
      id: 7,
      title: 'wrong keys sharing 0 vs 31 leading characters',
      targets: [{ name: 'infergate', auth }],
    };
    results.scenarios.push(entry);
    log(authTable(entry));
  }

  if (wanted(8)) {
    log(
      '\n== 8. key limits: none, in-memory and Redis, per request in one process, then over HTTP',
    );
    if (needsProxies)
      await Promise.all([stopProcess(floor), stopProcess(infergate), stopProcess(stub)]);
    results.limiter = await measureLimiter({ repositoryRoot, quick, log });
  }

  results.checks = evaluateTargets(results);
  results.seconds = Math.round((Date.now() - started) / 1000);
  log(`\n== Targets, measured in this run (${results.seconds} s)`);
  log(targetsTable(results.checks));
  mkdirSync(resultsDirectory, { recursive: true });
  const file = join(resultsDirectory, `bench-${quick ? 'quick-' : ''}${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(resultsDirectory, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  log(`\nresults: ${file}`);
  if (results.guard === undefined) return 0;
  say(guardVerdict(results.guard.rows, guard));
  if (!results.guard.met) {
    say(`every figure of the run: ${logFile}`);
    return 1;
  }
  return 0;
}

let stopping = false;
async function finish(code) {
  if (stopping) return;
  stopping = true;
  await stopAll();
  process.exit(code);
}
process.on('exit', killAllNow);
process.on('SIGINT', () => void finish(130));
process.on('SIGTERM', () => void finish(143));

main().then(
  (code) => finish(code ?? 0),
  (error) => {
    // With --guard the run's lines went to the log: its end shows how far the run got.
    if (logFile !== undefined && existsSync(logFile)) {
      const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n');
      process.stderr.write(`${lines.slice(-40).join('\n')}\n(the whole log: ${logFile})\n`);
    }
    process.stderr.write(`bench failed: ${error.stack ?? error}\n`);
    void finish(1);
  },
);
