import { defineConfig } from 'tsup';

export default defineConfig({
  // The CLI is the node-server's entry point. That app is private, so its own code is bundled here;
  // every package it imports stays an import, declared in package.json: @infergate/core and
  // @infergate/upstream (published, versioned with this package), the local backend (optional, loaded
  // only when a model is served by it) and the third-party ones.
  entry: { main: '../../apps/node-server/src/main.ts' },
  format: ['esm'],
  clean: true,
  sourcemap: true,
  target: 'es2022',
  esbuildOptions(options) {
    options.packages = 'external';
  },
});
