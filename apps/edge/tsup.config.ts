import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // Node: dependencies stay external and are resolved from node_modules at run time.
    entry: ['src/index.ts', 'src/node.ts', 'src/main-node.ts'],
    format: ['esm'],
    platform: 'node',
    dts: { entry: ['src/index.ts', 'src/node.ts'] },
    clean: true,
    sourcemap: true,
    target: 'es2022',
  },
  {
    // Workers: one self-contained module, our packages taken from source, nothing Node-specific in it.
    entry: { worker: 'src/worker.ts' },
    format: ['esm'],
    platform: 'neutral',
    noExternal: [/.*/],
    esbuildOptions(options) {
      options.conditions = [
        '@infergate/source',
        'workerd',
        'worker',
        'browser',
        'import',
        'default',
      ];
      options.mainFields = ['module', 'main'];
    },
    minify: true,
    // dist/metafile-esm.json: the bundle test reads the imports left in the Worker from it.
    metafile: true,
    sourcemap: true,
    target: 'es2022',
  },
]);
