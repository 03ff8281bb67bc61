import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@infergate/source'] },
  ssr: { resolve: { conditions: ['@infergate/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Real servers, the tokenizer and the image encoder load on first use, on a shared 2-core machine:
    // this bounds a hang, it asserts nothing about speed.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // As in the other packages (vitest.shared.ts): one module graph per worker, not per test file.
    isolate: false,
  },
});
