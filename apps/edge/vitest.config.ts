import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@infergate/source'] },
  ssr: { resolve: { conditions: ['@infergate/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The contract suite streams and reads 100 MiB-limit answers over real sockets, in two runtimes.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
