import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

// The integration suites start the gateway with the local backend; their setup is shorter than others'.
// --expose-gc: a stream test collects garbage on purpose (a body must outlive a collection).
export default mergeConfig(
  sharedConfig,
  defineConfig({ test: { hookTimeout: 30_000, execArgv: ['--expose-gc'] } }),
);
