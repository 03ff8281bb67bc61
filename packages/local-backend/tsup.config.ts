import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: { index: 'src/index.ts', node: 'src/node.ts' },
    format: ['esm'],
    dts: true,
    // The cli build below runs alongside this one: leave its files alone.
    clean: ['!cli.js', '!cli.js.map', '!local-backend-worker.js', '!local-backend-worker.js.map'],
    sourcemap: true,
    target: 'es2022',
    // waitForDrain comes from @infergate/node-runtime (a devDependency), bundled from its source at
    // build time: the entry imports nothing else, so users install none of node-runtime's dependencies.
    noExternal: ['@infergate/node-runtime'],
    esbuildOptions(options) {
      options.conditions = ['@infergate/source'];
    },
  },
  {
    // The bin and the worker bundle @infergate/core from source, so `pnpm start` works without building core first.
    // Its shebang comes from src/cli.ts (esbuild keeps a leading hashbang).
    // The worker thread's script (src/node/worker-entry.ts finds it beside the module that starts it).
    entry: { cli: 'src/cli.ts', 'local-backend-worker': 'src/node/local-backend-worker.ts' },
    format: ['esm'],
    dts: false,
    clean: false,
    sourcemap: true,
    target: 'es2022',
    noExternal: ['@infergate/core'],
    esbuildOptions(options) {
      options.conditions = ['@infergate/source'];
    },
  },
]);
