import process from 'node:process';
import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

// `pnpm --filter @infergate/core test -- --coverage` reaches vitest as `vitest run -- --coverage`,
// and vitest ignores flags after a literal `--`; coverage is switched on from argv instead.
const coverageRequested = process.argv.includes('--coverage');

// Tests that read core's files from disk with node:fs cannot run in the edge runtime: the
// portability check, and any integration test named *.node.test.ts.
const nodeOnly = ['test/portability.test.ts', 'test/**/*.node.test.ts'];

export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      // Core's tests touch no server or model: vitest's own limits, not the shared ones for slow suites.
      testTimeout: 5_000,
      hookTimeout: 10_000,
      // Core runs unchanged on Node and on Web-standard runtimes (workerd, Deno, Bun), so every
      // unit test runs twice: once in Node, once in vitest's edge-runtime environment.
      projects: [
        { extends: true, test: { name: 'node', environment: 'node' } },
        { extends: true, test: { name: 'edge', environment: 'edge-runtime', exclude: nodeOnly } },
      ],
      coverage: {
        enabled: coverageRequested,
        provider: 'v8',
        include: ['src/**/*.ts'],
        exclude: [
          'src/**/*.test.ts',
          // Test helpers that live beside the code.
          '**/test-*.ts',
          '**/*-test-ports.ts',
          'src/index.ts',
          // Type-only modules: nothing to execute.
          'src/catalogue/catalogue-types.ts',
          'src/config/gateway-config.ts',
          'src/ports/handler-types.ts',
          'src/ports/ports.ts',
          'src/sse/sse-event.ts',
          'src/transforms/upstream-embeddings.ts',
        ],
        reporter: ['text-summary', 'text'],
      },
    },
  }),
);
