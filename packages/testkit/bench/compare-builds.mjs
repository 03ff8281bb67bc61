// Before and after on the request path: several built checkouts of infergate and the floor, loaded in
// turn in the same process set, round after round, so that drift on the machine hits every build alike.
// See the "Comparing builds" section of README.md in this folder.
import { existsSync, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chatRequestBody } from './payloads.mjs';
import { measureThroughput } from './measure.mjs';
import { killAllNow, planCores, stopAll } from './processes.mjs';
import { compareBuildsTable } from './report.mjs';
import { benchApiKey, benchHeaders, throughputScenarios } from './scenarios.mjs';
import { startFloor, startInfergate, startStub } from './start-targets.mjs';
import { ensureWrk } from './wrk-load.mjs';
import process from 'node:process';

const benchDirectory = dirname(fileURLToPath(import.meta.url));
const resultsDirectory = join(benchDirectory, '..', 'bench-results');
const log = (line) => process.stdout.write(`${line}\n`);

const usage = `node bench/compare-builds.mjs [--scenario=1] [--rounds=5] [--seconds=4] [--model=ID] <checkout>[::NAME=value,...] ...

Loads the floor and infergate from each <checkout> (a built copy of this repository: apps/node-server/dist
must exist) at the bench's 64 connections, one after another, for --rounds rounds, and prints each one's
CPU per request in every round and its median, its median req/s, and each build's median per-round
difference in CPU from the first. NAME=value pairs after :: go into that infergate's environment (LOG_LEVEL=warn, say).
The same checkout may be named twice: the spread between the two is what the machine's noise looks like.

--scenario   one of ${throughputScenarios.map((scenario) => scenario.id).join(', ')} (run-bench.mjs's throughput scenarios)
--rounds     rounds of load; each build and the floor are loaded once per round (default 5)
--seconds    measured seconds per load, after a warm-up of 1 s (5 s in the first round; default 4)
--model      the model id the chat scenarios (1, 2) ask for, such as a virtual id that
             BENCH_CONFIG (JSON: sections added to a build's config file) defines per build`;

function parseArguments(argv) {
  const options = { scenario: 1, rounds: 5, seconds: 4, builds: [] };
  for (const arg of argv) {
    if (arg === '--') continue;
    if (arg === '--help' || arg === '-h') return { help: true };
    const option = /^--(scenario|rounds|seconds)=(\d+)$/.exec(arg);
    if (option !== null) {
      options[option[1]] = Number(option[2]);
      continue;
    }
    if (arg.startsWith('--model=')) {
      options.model = arg.slice('--model='.length);
      continue;
    }
    if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    const [checkout, pairs = ''] = arg.split('::');
    const env = {};
    // A value may hold commas (JSON): a pair starts only where a NAME= follows one.
    for (const pair of pairs.split(/,(?=[A-Z_][A-Z0-9_]*=)/).filter(Boolean)) {
      const equals = pair.indexOf('=');
      if (equals < 1) throw new Error(`${arg}: expected NAME=value after ::, got ${pair}`);
      env[pair.slice(0, equals)] = pair.slice(equals + 1);
    }
    const root = resolve(checkout);
    if (!existsSync(join(root, 'apps', 'node-server', 'dist', 'main.js')))
      throw new Error(
        `${checkout}: no apps/node-server/dist/main.js (build it: pnpm install && pnpm build)`,
      );
    options.builds.push({ label: arg, root, env });
  }
  if (options.builds.length === 0) throw new Error('name at least one checkout');
  if (!throughputScenarios.some((scenario) => scenario.id === options.scenario))
    throw new Error(`--scenario=${options.scenario}: no such throughput scenario`);
  if (options.rounds < 1 || options.seconds < 1)
    throw new Error('--rounds and --seconds take whole numbers from 1');
  return options;
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  if (options.help) {
    log(usage);
    return 0;
  }
  const listed = throughputScenarios.find((entry) => entry.id === options.scenario);
  const scenario =
    options.model === undefined
      ? listed
      : { ...listed, body: chatRequestBody(listed.id === 2, options.model) };
  if (options.model !== undefined && listed.id !== 1 && listed.id !== 2)
    throw new Error('--model applies to the chat scenarios (1, 2) only');
  const workDirectory = join(
    resultsDirectory,
    `compare-${new Date().toISOString().replace(/[:.]/g, '-')}`,
  );
  mkdirSync(workDirectory, { recursive: true });
  const layout = planCores(availableParallelism());
  const generator = ensureWrk(log);
  log(`scenario ${scenario.id}: ${scenario.title}`);
  log(
    `${layout.pinned ? 'proxies on core 0; load generator and stub on core 1' : `not pinned (${layout.reason})`}; load: ${generator}; logs in ${workDirectory}`,
  );

  const stub = await startStub({ workDirectory, longChunks: 30, longIntervalMs: 100 });
  const floor = await startFloor({
    workDirectory,
    upstreamOrigin: `http://127.0.0.1:${stub.ports[0]}`,
    core: layout.proxyCore,
  });
  const targets = [floor];
  for (const [index, build] of options.builds.entries()) {
    const name = `build-${index + 1}`;
    const infergate = await startInfergate({
      workDirectory,
      stubPorts: stub.ports,
      apiKey: benchApiKey,
      core: layout.proxyCore,
      fileTag: name,
      checkout: build.root,
      env: build.env,
    });
    targets.push({ ...infergate, name });
  }
  // A longer first warm-up: right after start a process is still being optimised, and a short warm-up
  // left the first round far slower than the next.
  const settings = {
    runs: options.rounds,
    rotate: true,
    warmSeconds: 5,
    seconds: options.seconds,
    connections: 64,
    generator,
    workDirectory,
  };
  log(
    `measuring: ${options.rounds} rounds of ${targets.length} targets, about ${Math.round((options.rounds * (options.seconds + 1) + 4) * targets.length)} s`,
  );
  const results = await measureThroughput(settings, targets, scenario, benchHeaders);
  const failed = results.findIndex((result) => result.failed !== undefined);
  if (failed >= 0)
    throw new Error(
      `${failed === 0 ? 'floor' : options.builds[failed - 1].label} answered the probe wrongly: ${results[failed].failed}`,
    );
  log('');
  log(compareBuildsTable(['floor', ...options.builds.map((build) => build.label)], results));
  return results.some((result) => result.errors > 0) ? 1 : 0;
}

process.on('SIGINT', () => {
  killAllNow();
  process.exit(130);
});
let status = 1;
try {
  status = await main();
} catch (error) {
  log(`compare-builds: ${error.message}`);
} finally {
  await stopAll();
}
process.exit(status);
