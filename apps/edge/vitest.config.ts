import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Temporary (issue 6): until core's index exports the route table, dispatch and config resolution.
const coreShim = fileURLToPath(new URL('./test/core-index-shim.ts', import.meta.url));

export default defineConfig({
  resolve: { conditions: ['@infergate/source'], alias: [{ find: /^@infergate\/core$/, replacement: coreShim }] },
  ssr: { resolve: { conditions: ['@infergate/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The contract suite streams and reads 100 MiB-limit answers over real sockets, in two runtimes.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
