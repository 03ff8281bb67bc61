import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig, withSerialGroup } from '../../vitest.shared.js';

// The contract suite streams and reads 100 MiB-limit answers over real sockets, in two runtimes; its
// setup (workerd) is bounded at 30 s. The fault matrix's files run alone, one at a time: their timed
// rows bound latencies and timeouts' precision, and some load the machine on purpose.
export default withSerialGroup(
  mergeConfig(sharedConfig, defineConfig({ test: { hookTimeout: 30_000 } })),
  ['test/fault-matrix-node.test.ts', 'test/fault-matrix-node-upstream.test.ts'],
);
