import {
  configDefaults,
  defineConfig,
  type TestProjectInlineConfiguration,
  type ViteUserConfig,
} from 'vitest/config';

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

/**
 * A package's config with its test files on two workers, then the files named in `serial` on one
 * worker alone, after the rest: those time a fault or load the machine, and a neighbour's servers
 * would skew what they measure. Each project is the whole config with its own files (a project that
 * extended the config would add the shared `include` to its own).
 */
export function serialAfterParallel(config: ViteUserConfig, serial: string[]): ViteUserConfig {
  const project = (test: NonNullable<ViteUserConfig['test']>): TestProjectInlineConfiguration => ({
    resolve: config.resolve,
    ssr: config.ssr,
    test: { ...config.test, ...test },
  });
  return {
    ...config,
    test: {
      projects: [
        project({
          name: 'parallel',
          exclude: [...configDefaults.exclude, ...serial],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        }),
        project({ name: 'serial', include: serial, maxWorkers: 1, sequence: { groupOrder: 1 } }),
      ],
    },
  };
}
