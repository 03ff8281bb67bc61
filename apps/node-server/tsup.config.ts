import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/main.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  // tsup bundles optional dependencies; the local backend stays an import, loaded only when a model
  // needs it, and left out of the image built without it.
  external: ['@infergate/local-backend'],
});
