import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // Core's route paths, SSE parser and response types are taken in at build time: the bundle has no
  // runtime dependency on @infergate/core (a devDependency) and so none on zod. Read from core's source
  // (`sideEffects: false` lets esbuild keep only the zod-free modules the SDK imports); the declaration
  // build reads core's source through `paths` (outside node_modules, so rollup-plugin-dts inlines it
  // rather than leaving an import) and keeps only the zod-free interfaces the SDK names.
  dts: { compilerOptions: { paths: { '@infergate/core': ['../core/src/index.ts'] } } },
  noExternal: ['@infergate/core'],
  esbuildOptions(options) {
    options.conditions = ['@infergate/source'];
  },
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
