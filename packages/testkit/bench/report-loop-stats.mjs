// Bench-only instrumentation for a proxy process: event-loop delay and garbage-collection pauses
// (perf_hooks) and memory, written to BENCH_STATS_FILE on SIGUSR2, after which the histogram and the
// pause counts start again. Nothing in the app changes.
import { writeFileSync } from 'node:fs';
import {
  constants,
  monitorEventLoopDelay,
  performance,
  PerformanceObserver,
} from 'node:perf_hooks';
import process from 'node:process';

const noPauses = () => ({
  since: performance.now(),
  scavenges: 0,
  markCompacts: 0,
  pauseMs: 0,
  maxPauseMs: 0,
});

export function reportLoopStats() {
  const statsFile = process.env.BENCH_STATS_FILE;
  if (!statsFile) return;
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  // Every collection stops the event loop for its entry's duration: the requests that arrive meanwhile wait.
  let gc = noPauses();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) gc.scavenges += 1;
      else if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.markCompacts += 1;
      gc.pauseMs += entry.duration;
      gc.maxPauseMs = Math.max(gc.maxPauseMs, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });
  let sequence = 0;
  process.on('SIGUSR2', () => {
    sequence += 1;
    const milliseconds = (nanoseconds) => Math.round(nanoseconds / 1e4) / 100;
    const memory = process.memoryUsage();
    const stats = {
      sequence,
      eventLoopDelayMs: {
        p50: milliseconds(histogram.percentile(50)),
        p99: milliseconds(histogram.percentile(99)),
        max: milliseconds(histogram.max),
      },
      memory: {
        rss: memory.rss,
        heapUsed: memory.heapUsed,
        external: memory.external,
        arrayBuffers: memory.arrayBuffers,
      },
      gc: {
        seconds: Math.round(performance.now() - gc.since) / 1000,
        scavenges: gc.scavenges,
        markCompacts: gc.markCompacts,
        pauseMs: Math.round(gc.pauseMs * 100) / 100,
        maxPauseMs: Math.round(gc.maxPauseMs * 100) / 100,
      },
    };
    writeFileSync(statsFile, JSON.stringify(stats));
    histogram.reset();
    gc = noPauses();
  });
}
