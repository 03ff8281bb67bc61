/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The client must run unchanged in workerd, Bun, Deno and browsers: fetch, AbortSignal, ReadableStream
// and TextDecoder only. tsconfig's `types: []` already rejects Buffer and process in src; this also
// catches imports that type-check on Node (node:*, zod, or core beyond its zod-free route paths and SSE
// parser, which would enter the bundle). Core's types are taken with `import type`: erased, and inlined
// in the .d.ts.
const sourceRoot = fileURLToPath(new URL('../src', import.meta.url));
const coreValues = new Set(['endpointRoutes', 'catalogueRoutes', 'createSseParser']);

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('src', () => {
  const files = sourceFiles(sourceRoot);

  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it("imports nothing but its own files, core's types, core's route paths and core's SSE parser", () => {
    const foreign = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\bimport\s+(type\s+)?([^;]*?)\s*from\s+'([^']+)'/g)]
        .filter(([, typeOnly, names = '', specifier = '']) => {
          if (specifier.startsWith('./') || specifier.startsWith('../')) return false;
          if (specifier !== '@infergate/core') return true;
          if (typeOnly !== undefined) return false;
          const values =
            names.startsWith('{') && names.endsWith('}') ? names.slice(1, -1).split(',') : [names];
          return !values.every((name) => coreValues.has(name.trim()));
        })
        .map(([statement]) => `${relative(sourceRoot, file)}: ${statement}`),
    );
    expect(foreign).toEqual([]);
  });

  it('uses no Node globals', () => {
    const uses = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return /\b(Buffer|process|require|__dirname|setImmediate)\b/.test(text)
        ? [relative(sourceRoot, file)]
        : [];
    });
    expect(uses).toEqual([]);
  });
});
