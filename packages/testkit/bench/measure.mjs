// The measurements of one scenario against one target: throughput (closed loop), fixed-rate latency,
// long streams, image bodies. Each reads the proxy's CPU and peak RSS from /proc around the load.
import { readFileSync, statSync } from 'node:fs';
import { undici } from './load-undici.mjs';
import { closedLoop, fixedRate } from './http-load.mjs';
import { runLongStreams } from './long-streams.mjs';
import { sendImageEdits } from './image-edits.mjs';
import { cpuMicroseconds, memoryOf, resetPeakRss } from './proc-stats.mjs';
import { median, sleep } from './stats.mjs';
import { runWrk } from './wrk-load.mjs';

const megabytes = (bytes) => Math.round((bytes / 1_048_576) * 10) / 10;

/** Asks a proxy for its event-loop and memory figures (report-loop-stats.mjs); the histogram restarts. */
export async function loopStats(target) {
  if (target.statsFile === undefined || target.pid === undefined) return undefined;
  let previous = 0;
  try {
    previous = JSON.parse(readFileSync(target.statsFile, 'utf8')).sequence;
  } catch {
    // No file yet.
  }
  process.kill(target.pid, 'SIGUSR2');
  for (let attempt = 0; attempt < 100; attempt += 1) {
    await sleep(20);
    try {
      if (statSync(target.statsFile).size > 0) {
        const stats = JSON.parse(readFileSync(target.statsFile, 'utf8'));
        if (stats.sequence > previous) return stats;
      }
    } catch {
      // Being written.
    }
  }
  return undefined;
}

/** One request, checked: the scenario is measured only if the target answers it correctly. */
export async function probe(target, scenario, headers) {
  const response = await undici.request(`${target.origin}${scenario.path}`, { method: 'POST', headers, body: scenario.body });
  const text = await response.body.text();
  if (response.statusCode !== 200 || !text.includes(scenario.expect)) {
    return `status ${response.statusCode}: ${text.slice(0, 300)}`;
  }
  return undefined;
}

function load(settings, target, scenario, headers, seconds, name) {
  if (settings.generator === 'wrk') {
    return runWrk({ url: `${target.origin}${scenario.path}`, body: scenario.body, headers, connections: settings.connections, seconds, scriptDirectory: settings.workDirectory, name });
  }
  return closedLoop({ origin: target.origin, request: { path: scenario.path, method: 'POST', headers, body: scenario.body }, connections: settings.connections, seconds });
}

/** Peak throughput: warm-up, then `runs` closed-loop runs; each figure the median of the runs. */
export async function measureThroughput(settings, target, scenario, headers) {
  const failure = await probe(target, scenario, headers);
  if (failure !== undefined) return { failed: failure };
  await load(settings, target, scenario, headers, settings.warmSeconds, `${target.name}-${scenario.id}-warm`);
  const pid = target.pid;
  const peakReset = pid !== undefined && resetPeakRss(pid);
  const cpuBefore = pid !== undefined ? cpuMicroseconds(pid) : 0;
  const runs = [];
  for (let run = 0; run < settings.runs; run += 1) runs.push(await load(settings, target, scenario, headers, settings.seconds, `${target.name}-${scenario.id}-${run}`));
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const cpu = pid !== undefined ? (cpuMicroseconds(pid) - cpuBefore) / Math.max(1, requests) : undefined;
  return {
    rps: median(runs.map((run) => run.rps)),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    requests,
    cpuUsPerRequest: cpu,
    peakRssMb: pid !== undefined ? megabytes(memoryOf(pid).hwm) : undefined,
    peakRssSinceStart: pid !== undefined && !peakReset,
    runs,
  };
}

/** Latency at a fixed rate (half of infergate's peak): each figure the median of `runs`. */
export async function measureFixedRate(settings, target, scenario, headers, rate) {
  const runs = [];
  const request = { path: scenario.path, method: 'POST', headers, body: scenario.body };
  await fixedRate({ origin: target.origin, request, rate, seconds: Math.min(1, settings.fixedSeconds) });
  for (let run = 0; run < settings.runs; run += 1) runs.push(await fixedRate({ origin: target.origin, request, rate, seconds: settings.fixedSeconds }));
  return {
    rate,
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    requests: runs.reduce((sum, run) => sum + run.requests, 0),
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

/** Scenario 6 against one proxy: RSS growth for one large body, then for 20 at once. */
export async function measureImageBodies(settings, target, headers, body) {
  const pid = target.pid;
  const round = async (count) => {
    await sleep(500);
    const before = memoryOf(pid).rss;
    const peakReset = resetPeakRss(pid);
    const result = await sendImageEdits({ origin: target.origin, headers, body, count });
    const peak = peakReset ? memoryOf(pid).hwm : Number.NaN;
    const growth = peak - before;
    return { ...result, rssBeforeMb: megabytes(before), peakRssMb: megabytes(peak), growthMb: megabytes(growth), growthPerBody: Math.round((growth / (body.length * count)) * 100) / 100 };
  };
  const one = await round(1);
  const many = await round(settings.imageConcurrent);
  return { bodyMb: megabytes(body.length), one, many };
}
