import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@infergate/source'] },
  ssr: { resolve: { conditions: ['@infergate/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
