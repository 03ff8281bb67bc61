import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { workerScript } from './start-edge-in-workerd.js';

const metafilePath = fileURLToPath(new URL('../dist/metafile-esm.json', import.meta.url));

// Workers' free plan takes a Worker of at most 3 MiB compressed; stay far below it.
const gzippedBound = 1024 * 1024;

describe('the Workers build (dist/worker.js)', () => {
  const bundle = readFileSync(workerScript);

  it('stays far under the 3 MiB compressed limit', () => {
    const gzipped = gzipSync(bundle, { level: 9 }).byteLength;
    console.info(`dist/worker.js: ${bundle.byteLength} bytes raw, ${gzipped} bytes gzip -9`);
    expect(gzipped).toBeLessThan(gzippedBound);
  });

  it('is one self-contained module with nothing Node-specific in it', () => {
    // esbuild's own account of the output (the text holds import lines as strings: the docs' code samples).
    const metafile = JSON.parse(readFileSync(metafilePath, 'utf8')) as {
      inputs: Record<string, unknown>;
      outputs: Record<string, { imports: { path: string }[] }>;
    };
    const worker = metafile.outputs['dist/worker.js'];
    expect(worker).toBeDefined();
    // No import is left for the runtime to resolve: no package, no node: builtin.
    expect(worker?.imports.map((entry) => entry.path)).toEqual([]);
    // The image library and the Node transports stay out of the Worker.
    const bundled = Object.keys(metafile.inputs);
    expect(bundled.some((path) => path.includes('packages/core/src/'))).toBe(true);
    expect(
      bundled.filter((path) =>
        /node_modules\/(?:\.pnpm\/)?(?:sharp|undici|fastify)|local-backend\/src\/|node-runtime\/src\/|upstream\/src\/(?:node|undici-transport)\.ts/.test(
          path,
        ),
      ),
    ).toEqual([]);
  });
});
