import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A module graph without cycles reads in one direction (the route table imports handlers, never the
// reverse) and loads in a defined order. Type-only imports count too: they tie the files just the same.
const sourceRoot = fileURLToPath(new URL('../src', import.meta.url));
const relativeImport = /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(relativeImport)].map((match) =>
    resolve(dirname(file), (match[1] ?? '').replace(/\.js$/, '.ts')),
  );
}

/** Each cycle once, as the files around it. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (file: string): void => {
    if (onPath.has(file)) {
      found.push([...path.slice(path.indexOf(file)), file]);
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    onPath.add(file);
    for (const next of graph.get(file) ?? []) visit(next);
    path.pop();
    onPath.delete(file);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return found;
}

describe("core's imports", () => {
  const graph = new Map(sourceFiles(sourceRoot).map((file) => [file, importsOf(file)]));

  it('are read from every source file', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get(join(sourceRoot, 'gateway/route-table.ts'))).toContain(
      join(sourceRoot, 'openapi/openapi-handlers.ts'),
    );
  });

  it('form no cycle', () => {
    expect(
      cycles(graph).map((cycle) => cycle.map((file) => relative(sourceRoot, file)).join(' -> ')),
    ).toEqual([]);
  });
});
