// Bench-only instrumentation for a proxy process: event-loop delay (perf_hooks) and memory, written
// to BENCH_STATS_FILE on SIGUSR2, after which the histogram starts again. Nothing in the app changes.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import process from 'node:process';

export function reportLoopStats() {
  const statsFile = process.env.BENCH_STATS_FILE;
  if (!statsFile) return;
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let sequence = 0;
  process.on('SIGUSR2', () => {
    sequence += 1;
    const milliseconds = (nanoseconds) => Math.round(nanoseconds / 1e4) / 100;
    const memory = process.memoryUsage();
    const stats = {
      sequence,
      eventLoopDelayMs: { p50: milliseconds(histogram.percentile(50)), p99: milliseconds(histogram.percentile(99)), max: milliseconds(histogram.max) },
      memory: { rss: memory.rss, heapUsed: memory.heapUsed, external: memory.external, arrayBuffers: memory.arrayBuffers },
    };
    writeFileSync(statsFile, JSON.stringify(stats));
    histogram.reset();
  });
}
