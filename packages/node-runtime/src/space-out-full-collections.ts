import { setFlagsFromString } from 'node:v8';

const flag = 'heap-growing-percent';

/**
 * Lets the old generation grow to four times what the last full collection kept (V8's own top), unless
 * the operator gave `node --heap-growing-percent=N` (Node refuses it in NODE_OPTIONS): at moderate load
 * V8 would pick the low end, and each full collection's pause shows in the tail latency. V8 reads the
 * flag each time it sets the limit, so setting it at start takes effect (docs/deployment.md).
 */
export function spaceOutFullCollections(): void {
  if (!process.execArgv.some((arg) => arg.replaceAll('_', '-').startsWith(`--${flag}`)))
    setFlagsFromString(`--${flag}=300`);
}
