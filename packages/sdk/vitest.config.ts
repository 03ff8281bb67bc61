import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@infergate/source'] },
  ssr: { resolve: { conditions: ['@infergate/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The integration suites start the gateway with the local backend, whose tokenizer and image
    // encoder load on first use; this bounds a hang, it asserts nothing about speed.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
