import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { workerScript } from './start-edge-in-workerd.js';

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
    const text = bundle.toString('utf8');
    expect(text).not.toMatch(/from\s*["'](?!\.)[^"']+["']/);
    expect(text).not.toMatch(/\bimport\(\s*["']/);
    expect(text).not.toContain('node:');
    expect(text).not.toContain('sharp');
  });
});
