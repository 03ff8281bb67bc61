import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@infergate/source'] },
  ssr: { resolve: { conditions: ['@infergate/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    // Packing four packages and an npm install from the registry on a shared 2-core machine: this bounds
    // a hang, it asserts nothing about speed.
    testTimeout: 60_000,
    hookTimeout: 600_000,
  },
});
