import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

// The integration suites start the gateway with the local backend; their setup is shorter than others'.
export default mergeConfig(sharedConfig, defineConfig({ test: { hookTimeout: 30_000 } }));
