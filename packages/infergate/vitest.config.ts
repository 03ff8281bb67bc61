import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

// mergeConfig concatenates arrays, so the narrower include replaces the shared one after the merge.
const config = mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      // The release's dry run (a worktree installed and built) and an npm install from the registry on
      // a shared 2-core machine: this bounds a hang, it asserts nothing about speed.
      testTimeout: 60_000,
      hookTimeout: 1_200_000,
    },
  }),
);
config.test = { ...config.test, include: ['test/**/*.test.ts'] };

export default config;
