import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Core's folders read as layers: a folder imports only folders below it, so that each one can be read
// and changed knowing only what lies under it. Tests and the test helpers beside the code (test-*.ts,
// *-test-ports.ts) are left out: a test may reach any folder. Type-only imports count like the others.
const sourceRoot = fileURLToPath(new URL('../src', import.meta.url));
const readme = fileURLToPath(new URL('../README.md', import.meta.url));
const relativeImport = /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function isTestCode(name: string): boolean {
  return name.endsWith('.test.ts') || name.startsWith('test-') || name.endsWith('-test-ports.ts');
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !isTestCode(entry.name) ? [path] : [];
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

/** The top folder under src/ holding a file; undefined for src/index.ts, which stands above them all. */
function folderOf(file: string): string | undefined {
  const parts = relative(sourceRoot, file).split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

/** For each folder, the folders it imports, each with one of the imports that does it. */
function folderImports(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(sourceRoot)) {
    const from = folderOf(file);
    if (from === undefined) continue;
    const targets = graph.get(from) ?? new Map<string, string>();
    graph.set(from, targets);
    for (const target of importsOf(file)) {
      const to = folderOf(target);
      if (to === undefined || to === from || targets.has(to)) continue;
      targets.set(to, `${relative(sourceRoot, file)} imports ${relative(sourceRoot, target)}`);
    }
  }
  return graph;
}

/** One cycle per back edge met in a depth-first walk: none exactly when the folders form layers. */
function folderCycles(graph: ReadonlyMap<string, ReadonlyMap<string, string>>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (folder: string): void => {
    if (path.includes(folder)) {
      found.push([...path.slice(path.indexOf(folder)), folder]);
      return;
    }
    if (done.has(folder)) return;
    path.push(folder);
    for (const next of graph.get(folder)?.keys() ?? []) visit(next);
    path.pop();
    done.add(folder);
  };
  for (const folder of [...graph.keys()].sort()) visit(folder);
  return found;
}

/** A cycle as its folders, each step with an import that makes it: `a -> b (a/x.ts imports b/y.ts)`. */
function describeCycle(
  cycle: readonly string[],
  graph: ReadonlyMap<string, ReadonlyMap<string, string>>,
): string {
  const steps = cycle.slice(1).map((to, index) => {
    const from = cycle[index] as string;
    return `${from} -> ${to} (${graph.get(from)?.get(to) ?? '?'})`;
  });
  return steps.join('; ');
}

/** The layers README.md lists under "## Layers", lowest first: the folder names in backquotes before each item's colon. */
function readmeLayers(): string[][] {
  const text = readFileSync(readme, 'utf8');
  const section = /^## Layers\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text)?.[1] ?? '';
  return [...section.matchAll(/^\d+\.\s+([^:\n]*)/gm)].map((item) =>
    [...(item[1] ?? '').matchAll(/`([^`]+)`/g)].map((name) => name[1] as string),
  );
}

describe("core's folders", () => {
  const graph = folderImports();

  it('are read with their imports', () => {
    expect(graph.size).toBeGreaterThan(10);
    expect([...(graph.get('gateway')?.keys() ?? [])]).toContain('http');
  });

  it('import no folder that imports them (no cycle between folders)', () => {
    const importEachOther = [...graph].flatMap(([from, targets]) =>
      [...targets]
        .filter(([to]) => from < to && graph.get(to)?.has(from))
        .map(
          ([to, example]) => `${from} <-> ${to}: ${example}; ${graph.get(to)?.get(from) ?? '?'}`,
        ),
    );
    // Longer cycles (a -> b -> c -> a); a pair importing each other is listed above with its imports.
    const longerCycles = folderCycles(graph)
      .filter((cycle) => cycle.length > 3)
      .map((cycle) => describeCycle(cycle, graph));
    expect({ importEachOther, longerCycles }).toEqual({ importEachOther: [], longerCycles: [] });
  });

  it('are listed in README.md as layers, each importing only folders on lines above its own', () => {
    const layers = readmeLayers();
    const layerOf = new Map(
      layers.flatMap((folders, index) => folders.map((folder) => [folder, index] as const)),
    );
    const folders = readdirSync(sourceRoot, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(layers.flat().sort(), 'every folder of src/ listed once').toEqual(folders);
    const upward = [...graph].flatMap(([from, targets]) =>
      [...targets]
        .filter(([to]) => (layerOf.get(to) ?? -1) >= (layerOf.get(from) ?? -1))
        .map(
          ([to, example]) =>
            `${from} (layer ${(layerOf.get(from) ?? -1) + 1}) imports ${to} (layer ${(layerOf.get(to) ?? -1) + 1}): ${example}`,
        ),
    );
    expect(upward).toEqual([]);
  });
});
