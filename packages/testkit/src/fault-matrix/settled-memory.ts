import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * The process's RSS in MB after full garbage collections, so that a memory bound compares live
 * memory rather than garbage the collector has not reached yet. The gateway under test runs in this
 * process, so its memory is in the figure (with the test's own).
 */
export async function settledRssMb(): Promise<number> {
  await collectGarbage();
  return process.memoryUsage().rss / (1024 * 1024);
}

/**
 * Live memory in MB after full garbage collections: the JavaScript heap in use plus the buffers it
 * holds. Unlike RSS it does not keep memory the allocator has freed but not returned to the system,
 * so a leak shows in it and a burst of large buffers that were all released does not.
 */
export async function settledLiveMb(): Promise<number> {
  await collectGarbage();
  const usage = process.memoryUsage();
  return (usage.heapUsed + usage.arrayBuffers) / (1024 * 1024);
}

async function collectGarbage(): Promise<void> {
  if (collect === undefined) {
    // Tests run without --expose-gc; this exposes it to a fresh context (the documented V8 idiom).
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  for (let round = 0; round < 3; round += 1) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
}
