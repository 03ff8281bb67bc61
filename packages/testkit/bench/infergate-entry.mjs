// Starts infergate's built server (apps/node-server/dist/main.js, unchanged) inside a process that also
// samples event-loop delay for the bench (see report-loop-stats.mjs). run-bench.mjs starts it with
// HOST, PORT, INFERGATE_API_KEYS, INFERGATE_CONFIG and BENCH_STATS_FILE set, on the proxy's core.
import { reportLoopStats } from './report-loop-stats.mjs';
import { URL } from 'node:url';

reportLoopStats();
await import(new URL('../../../apps/node-server/dist/main.js', import.meta.url).href);
