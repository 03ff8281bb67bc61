import { defineConfig } from 'vitest/config';

/**
 * What every package's vitest.config.ts shares: workspace packages resolved to their `src` through the
 * `@infergate/source` export condition (no build before a test), tests beside the code and in `test/`,
 * and timeouts for suites that start real servers, the tokenizer and the image encoder on first use
 * on a shared 2-core machine (they bound a hang; they assert nothing about speed). Each package's
 * config is `mergeConfig(sharedConfig, { ...what differs })`.
 *
 * `isolate: false`: a worker keeps its module graph from one test file to the next instead of loading
 * Fastify, zod, core and the clients again for each. The suites share no state through modules (each
 * starts its own servers), and a test that needs a fresh module must not rely on file isolation.
 */
export const sharedConfig = defineConfig({
  resolve: { conditions: ['@infergate/source'] },
  ssr: { resolve: { conditions: ['@infergate/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    isolate: false,
  },
});
