import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: { index: 'src/index.ts', node: 'src/node.ts' },
    format: ['esm'],
    dts: true,
    // The cli build below runs alongside this one: leave its files alone.
    clean: ['!cli.js', '!cli.js.map'],
    sourcemap: true,
    target: 'es2022',
  },
  {
    // The bin bundles @infergate/core from source, so `pnpm start` works without building core first.
    // Its shebang comes from src/cli.ts (esbuild keeps a leading hashbang).
    entry: { cli: 'src/cli.ts' },
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
