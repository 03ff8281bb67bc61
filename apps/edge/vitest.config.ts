import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

// The contract suite streams and reads 100 MiB-limit answers over real sockets, in two runtimes; its
// setup (workerd) is bounded at 30 s.
export default mergeConfig(sharedConfig, defineConfig({ test: { hookTimeout: 30_000 } }));
