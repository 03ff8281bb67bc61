import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// README.md lists core's public API group by group; the list and src/index.ts must name the same
// exports, so that a name added to (or dropped from) the API is a decision the README records.
const index = fileURLToPath(new URL('../src/index.ts', import.meta.url));
const readme = fileURLToPath(new URL('../README.md', import.meta.url));

function withoutComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

/** The names a module declares with `export` (what `export type * from` passes on). */
function declaredExports(file: string): string[] {
  const code = withoutComments(readFileSync(file, 'utf8'));
  const declarations = [
    ...code.matchAll(
      /^export\s+(?:declare\s+)?(?:interface|type|class|const|function|enum)\s+(\w+)/gm,
    ),
  ].map((match) => match[1] as string);
  const lists = [...code.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\};/gm)].flatMap((match) =>
    names(match[1] ?? ''),
  );
  return [...declarations, ...lists];
}

/** The exported names of an `export { a, type B, c as d }` list. */
function names(list: string): string[] {
  return list
    .split(',')
    .map((entry) => entry.trim().replace(/^type\s+/, ''))
    .filter((entry) => entry.length > 0)
    .map((entry) => entry.split(/\s+as\s+/).pop() as string);
}

function indexExports(): string[] {
  const code = withoutComments(readFileSync(index, 'utf8'));
  const listed = [...code.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'[^']+'/g)].flatMap(
    (match) => names(match[1] ?? ''),
  );
  const passedOn = [...code.matchAll(/export\s+type\s+\*\s+from\s*'([^']+)'/g)].flatMap((match) =>
    declaredExports(resolve(dirname(index), (match[1] ?? '').replace(/\.js$/, '.ts'))),
  );
  return [...listed, ...passedOn];
}

/** The names in backquotes after each group's colon, under "## Public API". */
function readmeExports(): string[] {
  const text = readFileSync(readme, 'utf8');
  const section = /^## Public API\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(text)?.[1] ?? '';
  return [...section.matchAll(/^- \*\*[^*]+\*\*[^:\n]*:(.*)$/gm)].flatMap((group) =>
    [...(group[1] ?? '').matchAll(/`([^`]+)`/g)].map((name) => name[1] as string),
  );
}

describe("core's public API", () => {
  it('is read from src/index.ts', () => {
    const exported = indexExports();
    expect(exported).toContain('createGateway');
    expect(exported).toContain('UpstreamPort');
    expect(new Set(exported).size).toBe(exported.length);
  });

  it('is listed in README.md, each export once', () => {
    const listed = readmeExports();
    expect([...listed].sort(), 'README.md "## Public API" against src/index.ts').toEqual(
      indexExports().sort(),
    );
    expect(new Set(listed).size, 'a name listed twice').toBe(listed.length);
  });
});
