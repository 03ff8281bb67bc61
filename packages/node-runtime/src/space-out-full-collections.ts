import { setFlagsFromString } from 'node:v8';

const flag = 'heap-growing-percent';

/**
 * Lets the old generation grow to four times what the last full collection kept before the next one,
 * unless the operator chose a growing percent (`node --heap-growing-percent=N`; Node refuses it in
 * NODE_OPTIONS). V8 picks that factor itself, between 1.1 and 4, from how fast the old generation
 * fills: a gateway at moderate load fills it slowly (a few hundred bytes per request outlive two
 * scavenges), so V8 chose the low end and marked again after 7-9 MB, every 10-13 s at half of peak.
 * Marking the ~31 MB heap takes 30-50 ms of the core while requests wait, and every fixed-rate bench
 * run with a full collection in it had a p99 of 10-22 ms against 1.4-2.5 ms without. 4 is V8's own top
 * (what it gives programs that fill the old generation fast): the flag fixes the factor rather than
 * setting a minimum, and a fixed 2 was worse for embeddings, whose large answers fill the old generation
 * fast enough that V8 had been choosing a higher one (at 2: 11-13 full collections in each 3 s run). The
 * cost is a heap of up to four times the live one between collections (figures in docs/deployment.md);
 * V8 still caps each limit halfway to the heap's maximum. V8 reads the flag each time it sets the
 * limit, so setting it at start takes effect.
 */
export function spaceOutFullCollections(): void {
  if (!process.execArgv.some((arg) => arg.replaceAll('_', '-').startsWith(`--${flag}`))) setFlagsFromString(`--${flag}=300`);
}
