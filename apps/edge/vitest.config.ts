import { defineConfig, mergeConfig } from 'vitest/config';
import { serialAfterParallel, sharedConfig } from '../../vitest.shared.js';

// Files that assert how long a fault takes to be handled.
const timed = [
  'test/connection-cap.test.ts',
  'test/fault-matrix-node.test.ts',
  'test/node-protections.test.ts',
];

// The contract suite streams and reads 100 MiB-limit answers over real sockets, in two runtimes; its
// setup (workerd) is bounded at 30 s.
export default serialAfterParallel(
  mergeConfig(sharedConfig, defineConfig({ test: { hookTimeout: 30_000 } })),
  timed,
);
