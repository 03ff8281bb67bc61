import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * The process's RSS in MB after full garbage collections, so that a memory bound compares live
 * memory rather than garbage the collector has not reached yet. The gateway under test runs in this
 * process, so its memory is in the figure (with the test's own).
 */
export async function settledRssMb(): Promise<number> {
  if (collect === undefined) {
    // Tests run without --expose-gc; this exposes it to a fresh context (the documented V8 idiom).
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  for (let round = 0; round < 3; round += 1) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().rss / (1024 * 1024);
}
