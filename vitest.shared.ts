import process from 'node:process';
import {
  configDefaults,
  defineConfig,
  type TestProjectInlineConfiguration,
  type ViteUserConfig,
} from 'vitest/config';

/**
 * Which group a run holds: `parallel` (every file but the serial ones), `serial` (those alone), or both
 * when unset, the serial group after the other. `pnpm test` runs the parallel groups of every package
 * at once, then the serial groups one package at a time, so that a serial file shares the machine with
 * no other test.
 */
function testGroup(): 'parallel' | 'serial' | undefined {
  const group = process.env.INFERGATE_TEST_GROUP;
  if (group === undefined || group === '') return undefined;
  if (group !== 'parallel' && group !== 'serial')
    throw new Error(`INFERGATE_TEST_GROUP is parallel or serial, not '${group}'`);
  return group;
}

const group = testGroup();

/**
 * What every package's vitest.config.ts shares: workspace packages resolved to their `src` through the
 * `@infergate/source` export condition (no build before a test), tests beside the code and in `test/`,
 * and timeouts for suites that start real servers, the tokenizer and the image encoder on first use
 * on a shared 2-core machine (they bound a hang; they assert nothing about speed). Each package's
 * config is `mergeConfig(sharedConfig, { ...what differs })`, passed through `withSerialGroup` when
 * some of its files must run alone. A package without serial files has nothing to run in the serial
 * group.
 */
export const sharedConfig = defineConfig({
  resolve: { conditions: ['@infergate/source'] },
  ssr: { resolve: { conditions: ['@infergate/source'] } },
  test: {
    include: group === 'serial' ? [] : ['src/**/*.test.ts', 'test/**/*.test.ts'],
    passWithNoTests: group === 'serial',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Three files at a time, each in a process of its own: most of them wait on servers, child
    // processes and timers far more than they compute, and vitest's default on two cores is one.
    maxWorkers: 3,
  },
});

/**
 * `config` with `serial` (globs relative to the package) in a group of their own that runs after every
 * other file, one file at a time: the files that bound a latency, a timeout's precision or a rate, or
 * that load the machine themselves, and would fail or mislead with other tests competing for the two
 * cores. The other files keep `config`'s parallelism.
 */
export function withSerialGroup(config: ViteUserConfig, serial: readonly string[]): ViteUserConfig {
  const { include = [], ...test } = config.test ?? {};
  const projects: TestProjectInlineConfiguration[] = [];
  if (group !== 'serial') {
    projects.push({
      extends: true,
      test: { name: 'parallel', include, exclude: [...configDefaults.exclude, ...serial] },
    });
  }
  if (group !== 'parallel') {
    projects.push({
      extends: true,
      test: { name: 'serial', include: [...serial], maxWorkers: 1, sequence: { groupOrder: 1 } },
    });
  }
  return { ...config, test: { ...test, projects } };
}
