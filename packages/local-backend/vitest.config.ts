import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

// vitest's default is one worker fewer than the cores, a single one on a 2-core machine. The local
// backend's files are the longest of the libraries and often run last in `pnpm test`, when the core
// its neighbour used is free: two workers take it. Each loads the tokenizer once (isolate: false).
export default mergeConfig(sharedConfig, defineConfig({ test: { maxWorkers: 2 } }));
