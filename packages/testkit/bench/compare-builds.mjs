// Before and after on the request path: several built checkouts of infergate and the floor, loaded in
// turn in the same process set, round after round, so that drift on the machine hits every build alike.
// See the "Comparing builds" section of README.md in this folder.
import { existsSync, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { probe } from './measure.mjs';
import { killAllNow, planCores, stopAll } from './processes.mjs';
import { cpuMicroseconds } from './proc-stats.mjs';
import { throughputScenarios } from './scenarios.mjs';
import { startFloor, startInfergate, startStub } from './start-targets.mjs';
import { median } from './stats.mjs';
import { ensureWrk, runWrk } from './wrk-load.mjs';
import process from 'node:process';

const benchDirectory = dirname(fileURLToPath(import.meta.url));
const resultsDirectory = join(benchDirectory, '..', 'bench-results');
const log = (line) => process.stdout.write(`${line}\n`);

const usage = `node bench/compare-builds.mjs [--scenario=1] [--rounds=5] [--seconds=4] <checkout>[::NAME=value,...] ...

Loads the floor and infergate from each <checkout> (a built copy of this repository: apps/node-server/dist
must exist) with wrk at the bench's concurrency, one after another, for --rounds rounds, and prints each
one's CPU per request and req/s per round, their medians, and each build's median per-round difference
from the first. NAME=value pairs after :: go into that infergate's environment (LOG_LEVEL=warn, say).
The same checkout may be named twice: the spread between the two is what the machine's noise looks like.

--scenario   one of ${throughputScenarios.map((scenario) => scenario.id).join(', ')} (run-bench.mjs's throughput scenarios)
--rounds     rounds of load; each build and the floor are loaded once per round (default 5)
--seconds    measured seconds per load, after a warm-up of 1 s (5 s in the first round; default 4)`;

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
    if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    const [checkout, pairs = ''] = arg.split('::');
    const env = {};
    for (const pair of pairs.split(',').filter(Boolean)) {
      const equals = pair.indexOf('=');
      if (equals < 1) throw new Error(`${arg}: expected NAME=value after ::, got ${pair}`);
      env[pair.slice(0, equals)] = pair.slice(equals + 1);
    }
    const root = resolve(checkout);
    if (!existsSync(join(root, 'apps', 'node-server', 'dist', 'main.js')))
      throw new Error(`${checkout}: no apps/node-server/dist/main.js (build it: pnpm install && pnpm build)`);
    options.builds.push({ label: arg, root, env });
  }
  if (options.builds.length === 0) throw new Error('name at least one checkout');
  if (!throughputScenarios.some((scenario) => scenario.id === options.scenario)) throw new Error(`--scenario=${options.scenario}: no such throughput scenario`);
  if (options.rounds < 1 || options.seconds < 1) throw new Error('--rounds and --seconds take whole numbers from 1');
  return options;
}

// The first round warms up longer: right after start a process is still being optimised (chat took 257
// us per request in a first round after 1 s of warm-up, against 127-132 in the next two).
async function loadOnce(target, scenario, headers, seconds, workDirectory, warmSeconds) {
  const url = `${target.origin}${scenario.path}`;
  const common = { url, body: scenario.body, headers, connections: 64, scriptDirectory: workDirectory };
  await runWrk({ ...common, seconds: warmSeconds, name: `${target.tag}-warm` });
  const before = cpuMicroseconds(target.pid);
  const result = await runWrk({ ...common, seconds, name: target.tag });
  return { rps: result.rps, cpu: (cpuMicroseconds(target.pid) - before) / Math.max(1, result.requests), errors: result.errors };
}

const fixed = (value, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function printTable(targets) {
  const first = targets[1];
  const rows = targets.map((target) => {
    const cpu = target.rounds.map((round) => round.cpu);
    const difference = target === targets[0] ? '' : `${fixed(median(target.rounds.map((round, index) => round.cpu - first.rounds[index].cpu)))}`;
    return [
      target.label,
      fixed(median(cpu)),
      cpu.map((value) => fixed(value)).join(' '),
      fixed(median(target.rounds.map((round) => round.rps))),
      target === targets[0] ? '' : `${fixed(median(cpu) / median(targets[0].rounds.map((round) => round.cpu)), 2)} x`,
      target === first || target === targets[0] ? '' : `${difference.startsWith('-') ? '' : '+'}${difference}`,
      String(target.rounds.reduce((sum, round) => sum + round.errors, 0)),
    ];
  });
  const header = ['target', 'CPU us/req', 'per round', 'req/s', 'CPU vs floor', 'vs first build', 'errors'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells) => cells.map((cell, column) => (column === 0 || column === 2 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  log(line(header));
  log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) log(line(row));
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  if (options.help) {
    log(usage);
    return 0;
  }
  const scenario = throughputScenarios.find((entry) => entry.id === options.scenario);
  const workDirectory = join(resultsDirectory, `compare-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(workDirectory, { recursive: true });
  const layout = planCores(availableParallelism());
  if (ensureWrk(log) !== 'wrk') throw new Error('wrk is needed (apt-get install -y wrk)');
  log(`scenario ${scenario.id}: ${scenario.title}`);
  log(
    `${layout.pinned ? 'proxies on core 0; wrk and the stub on core 1' : `not pinned (${layout.reason})`}; ${options.rounds} rounds of ${options.seconds} s; logs in ${workDirectory}`,
  );

  const apiKey = `ig-bench-${'0123456789abcdef'.repeat(2)}`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` };
  const stub = await startStub({ workDirectory, longChunks: 30, longIntervalMs: 100 });
  const floor = await startFloor({ workDirectory, upstreamOrigin: `http://127.0.0.1:${stub.ports[0]}`, core: layout.proxyCore });
  const targets = [{ ...floor, label: 'floor', tag: 'floor', rounds: [] }];
  for (const [index, build] of options.builds.entries()) {
    const tag = `build-${index + 1}`;
    const infergate = await startInfergate({
      workDirectory,
      stubPorts: stub.ports,
      apiKey,
      core: layout.proxyCore,
      fileTag: tag,
      checkout: build.root,
      env: build.env,
    });
    targets.push({ ...infergate, label: build.label, tag, rounds: [] });
  }
  for (const target of targets) {
    const failed = await probe(target, scenario, headers);
    if (failed !== undefined) throw new Error(`${target.label} answered the probe wrongly: ${failed}`);
  }
  for (let round = 1; round <= options.rounds; round += 1) {
    const cells = [];
    for (const target of targets) {
      const result = await loadOnce(target, scenario, headers, options.seconds, workDirectory, round === 1 ? 5 : 1);
      target.rounds.push(result);
      cells.push(`${target.tag} ${fixed(result.cpu)} us ${fixed(result.rps)}/s`);
    }
    log(`round ${round}/${options.rounds}: ${cells.join(' | ')}`);
  }
  log('');
  printTable(targets);
  return targets.some((target) => target.rounds.some((round) => round.errors > 0)) ? 1 : 0;
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
