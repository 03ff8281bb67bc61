// The measurements of one scenario against one target: throughput (closed loop), fixed-rate latency,
// long streams, image bodies. Each reads the proxy's CPU and peak RSS from /proc around the load.
import { readFileSync, rmSync } from 'node:fs';
import { undici } from './load-undici.mjs';
import { closedLoop, fixedRate } from './http-load.mjs';
import { openLoopFixedRate } from './open-loop-load.mjs';
import { runLongStreams } from './long-streams.mjs';
import { sendImageEdits } from './image-edits.mjs';
import { cpuMicroseconds, memoryOf, resetPeakRss } from './proc-stats.mjs';
import { median, sleep } from './stats.mjs';
import { runWrk } from './wrk-load.mjs';
import process from 'node:process';

const megabytes = (bytes) => Math.round((bytes / 1_048_576) * 10) / 10;

/** Asks a proxy for its event-loop and memory figures (report-loop-stats.mjs); the histogram restarts. */
export async function loopStats(target) {
  if (target.statsFile === undefined || target.pid === undefined) return undefined;
  rmSync(target.statsFile, { force: true });
  process.kill(target.pid, 'SIGUSR2');
  for (let attempt = 0; attempt < 100; attempt += 1) {
    await sleep(20);
    try {
      return JSON.parse(readFileSync(target.statsFile, 'utf8'));
    } catch {
      // Not written yet, or being written.
    }
  }
  return undefined;
}

/** One request, checked: the scenario is measured only if the target answers it correctly. */
export async function probe(target, scenario, headers) {
  const response = await undici.request(`${target.origin}${scenario.path}`, {
    method: 'POST',
    headers,
    body: scenario.body,
  });
  const text = await response.body.text();
  if (
    response.statusCode !== 200 ||
    !text.includes(scenario.expect) ||
    scenario.complete?.(text) === false
  ) {
    return `status ${response.statusCode}: ${text.slice(0, 300)}`;
  }
  return undefined;
}

function load(settings, target, scenario, headers, seconds, name) {
  if (settings.generator === 'wrk') {
    return runWrk({
      url: `${target.origin}${scenario.path}`,
      body: scenario.body,
      headers,
      connections: settings.connections,
      seconds,
      scriptDirectory: settings.workDirectory,
      name,
    });
  }
  return closedLoop({
    origin: target.origin,
    request: { path: scenario.path, method: 'POST', headers, body: scenario.body },
    connections: settings.connections,
    seconds,
  });
}

/**
 * Peak throughput of every target, runs interleaved (direct, floor, infergate, direct, ...) so that
 * drift on the machine hits all alike. A warm-up precedes each target's first run, and a one-second
 * one the later runs (undici drops idle upstream connections after 4 s). Each figure is the median
 * of the runs; CPU counts only the measured runs (each run's own is kept too, for compare-builds.mjs's
 * paired differences); peak RSS is reset after the first warm-up. With `settings.rotate`, each round
 * starts one target later than the round before, so that over as many rounds as targets each target
 * has run in every position: a target's place in the round then cannot pass for its own cost.
 */
export async function measureThroughput(settings, targets, scenario, headers) {
  const states = [];
  for (const target of targets)
    states.push({
      target,
      failed: await probe(target, scenario, headers),
      runs: [],
      cpu: 0,
      peakReset: false,
    });
  const live = states.filter((state) => state.failed === undefined);
  for (let run = 0; run < settings.runs; run += 1) {
    const shift = settings.rotate ? run % live.length : 0;
    for (const state of [...live.slice(shift), ...live.slice(0, shift)]) {
      const { target } = state;
      await load(
        settings,
        target,
        scenario,
        headers,
        run === 0 ? settings.warmSeconds : 1,
        `${target.name}-${scenario.id}-warm`,
      );
      if (run === 0 && target.pid !== undefined) state.peakReset = resetPeakRss(target.pid);
      const cpuBefore = target.pid !== undefined ? cpuMicroseconds(target.pid) : 0;
      const result = await load(
        settings,
        target,
        scenario,
        headers,
        settings.seconds,
        `${target.name}-${scenario.id}`,
      );
      const cpu = target.pid !== undefined ? cpuMicroseconds(target.pid) - cpuBefore : undefined;
      state.runs.push({ ...result, cpu });
      if (cpu !== undefined) state.cpu += cpu;
    }
  }
  return states.map(({ target, failed, runs, cpu, peakReset }) => {
    if (failed !== undefined) return { failed };
    const requests = runs.reduce((sum, run) => sum + run.requests, 0);
    return {
      rps: median(runs.map((run) => run.rps)),
      p50: median(runs.map((run) => run.p50)),
      p99: median(runs.map((run) => run.p99)),
      errors: runs.reduce((sum, run) => sum + run.errors, 0),
      requests,
      cpuUsPerRequest: target.pid !== undefined ? cpu / Math.max(1, requests) : undefined,
      peakRssMb: target.pid !== undefined ? megabytes(memoryOf(target.pid).hwm) : undefined,
      peakRssSinceStart: target.pid !== undefined && !peakReset,
      runs: runs.map((run) => ({
        rps: Math.round(run.rps),
        p50: run.p50,
        p99: run.p99,
        errors: run.errors,
        cpuUsPerRequest: run.cpu === undefined ? undefined : run.cpu / Math.max(1, run.requests),
      })),
    };
  });
}

/** Latency at a fixed rate (half of infergate's peak), runs interleaved across targets; medians of the runs. */
export async function measureFixedRate(settings, targets, scenario, headers, rate) {
  const request = { path: scenario.path, method: 'POST', headers, body: scenario.body };
  const runsOf = targets.map(() => []);
  for (let run = 0; run < settings.runs; run += 1) {
    for (const [index, target] of targets.entries()) {
      await loopStats(target);
      let latency;
      if (settings.openLoop === undefined) {
        await fixedRate({ origin: target.origin, request, rate, seconds: 0.5 });
        latency = await fixedRate({
          origin: target.origin,
          request,
          rate,
          seconds: settings.fixedSeconds,
        });
      } else {
        const load = {
          binary: settings.openLoop,
          workDirectory: settings.workDirectory,
          origin: target.origin,
          request,
          rate,
        };
        latency = await openLoopFixedRate({
          ...load,
          warmSeconds: 0.5,
          seconds: settings.fixedSeconds,
        });
      }
      runsOf[index].push({ ...latency, gc: (await loopStats(target))?.gc });
    }
  }
  return runsOf.map((runs) => ({
    rate,
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    requests: runs.reduce((sum, run) => sum + run.requests, 0),
    gc: gcPauses(runs),
    runs: runs.map((run) => ({ p50: run.p50, p99: run.p99, errors: run.errors, gc: run.gc })),
  }));
}

/** The garbage collector's pauses over a target's fixed-rate runs (warm-up included): the tail's usual cause. */
function gcPauses(runs) {
  const measured = runs.map((run) => run.gc).filter((gc) => gc !== undefined);
  if (measured.length === 0) return undefined;
  const sum = (field) => measured.reduce((total, gc) => total + gc[field], 0);
  const seconds = sum('seconds');
  return {
    seconds,
    scavenges: sum('scavenges'),
    markCompacts: sum('markCompacts'),
    pausePercent: seconds > 0 ? sum('pauseMs') / (seconds * 10) : undefined,
    maxPauseMs: Math.max(...measured.map((gc) => gc.maxPauseMs)),
  };
}

/** Scenario 5 against one proxy: peak RSS, event-loop delay, CPU, completed streams. */
export async function measureLongStreams(settings, target, scenario, headers, log) {
  const pid = target.pid;
  const rssAtStart = memoryOf(pid).rss;
  const peakReset = resetPeakRss(pid);
  await loopStats(target);
  const cpuBefore = cpuMicroseconds(pid);
  let sampledPeak = rssAtStart;
  const result = await runLongStreams({
    origin: target.origin,
    path: scenario.path,
    headers,
    body: scenario.body,
    streams: settings.longStreams,
    deadlineMs: settings.longChunks * settings.longIntervalMs + 30_000,
    onTick: ({ open, done }) => {
      sampledPeak = Math.max(sampledPeak, memoryOf(pid).rss);
      if (settings.verbose) log(`  ${target.name}: ${open} open, ${done} done`);
    },
  });
  const stats = await loopStats(target);
  const cpuSeconds = (cpuMicroseconds(pid) - cpuBefore) / 1e6;
  const memory = memoryOf(pid);
  return {
    ...result,
    rssAtStartMb: megabytes(rssAtStart),
    peakRssMb: megabytes(peakReset ? memory.hwm : sampledPeak),
    cpuSeconds: Math.round(cpuSeconds * 100) / 100,
    eventLoopDelayMs: stats?.eventLoopDelayMs,
  };
}

/** Scenario 6 against one proxy: RSS growth for one large body, then for 20 at once; `contentType` of the body. */
export async function measureImageBodies(settings, target, headers, body, contentType) {
  const pid = target.pid;
  const round = async (count) => {
    await sleep(500);
    const before = memoryOf(pid).rss;
    const peakReset = resetPeakRss(pid);
    const result = await sendImageEdits({
      origin: target.origin,
      headers,
      body,
      count,
      contentType,
    });
    const peak = peakReset ? memoryOf(pid).hwm : Number.NaN;
    const growth = peak - before;
    // Growth per body the proxy accepted (200): refused bodies are never read.
    return {
      ...result,
      rssBeforeMb: megabytes(before),
      peakRssMb: megabytes(peak),
      growthMb: megabytes(growth),
      growthPerBody: Math.round((growth / (body.length * Math.max(1, result.ok))) * 100) / 100,
    };
  };
  const one = await round(1);
  const many = await round(settings.imageConcurrent);
  return { bodyMb: megabytes(body.length), one, many };
}
