import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;
const mb = 1024 * 1024;

export interface SettledMemory {
  /**
   * The JavaScript heap in use plus the buffers it holds, in MB. Unlike RSS it does not keep memory the
   * allocator has freed but not returned to the system, so a leak shows in it and a burst of large
   * buffers that were all released does not.
   */
  live: number;
  /** The process's RSS in MB: the gateway under test runs in this process, so the test's own is in it too. */
  rss: number;
}

/**
 * Memory after full garbage collections, so that a memory bound compares live memory rather than
 * garbage the collector has not reached yet.
 */
export async function settledMemoryMb(): Promise<SettledMemory> {
  if (collect === undefined) {
    // Tests run without --expose-gc; this exposes it to a fresh context (the documented V8 idiom).
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  for (let round = 0; round < 3; round += 1) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const usage = process.memoryUsage();
  return { live: (usage.heapUsed + usage.arrayBuffers) / mb, rss: usage.rss / mb };
}

/** A change in MB with its sign, for figures: `+1.6`, `-0.3`. */
export function signedMb(change: number): string {
  return `${change >= 0 ? '+' : ''}${change.toFixed(1)}`;
}
