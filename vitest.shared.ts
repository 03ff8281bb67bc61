import { defineConfig } from 'vitest/config';

/**
 * What every package's vitest.config.ts shares: workspace packages resolved to their `src` through the
 * `@infergate/source` export condition (no build before a test), tests beside the code and in `test/`,
 * and timeouts for suites that start real servers, the tokenizer and the image encoder on first use
 * on a shared 2-core machine (they bound a hang; they assert nothing about speed). Each package's
 * config is `mergeConfig(sharedConfig, { ...what differs })`.
 */
export const sharedConfig = defineConfig({
  resolve: { conditions: ['@infergate/source'] },
  ssr: { resolve: { conditions: ['@infergate/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
