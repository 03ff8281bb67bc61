import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../src/catalogue/default-catalogue.js';
import { routeTable } from '../src/gateway/route-table.js';
import { buildOpenApiDocument } from '../src/openapi/build-openapi-document.js';
import { repositoryRoot } from './repository-root.js';

// One name per side of a key, everywhere a reader copies from: INFERGATE_API_KEYS is the gateway's
// comma-separated list of the keys it accepts (the operator's variable), INFERGATE_API_KEY the one key a
// client sends (every curl, SDK snippet and the start banner's example). An older client name, or the
// server's list used where a client's key goes, fails here with the file and line.
const wrongUses: ReadonlyArray<{ pattern: RegExp; why: string }> = [
  {
    pattern: /\bINFERGATE_KEY\b/,
    why: 'the old client variable: the client reads INFERGATE_API_KEY',
  },
  {
    pattern: /Bearer \$\{?INFERGATE_API_KEYS\b/,
    why: "the server's key list sent as a client's key: a client sends $INFERGATE_API_KEY",
  },
  {
    pattern:
      /(?:apiKey|api_key|token)\s*[:=]\s*(?:process\.env\.|os\.environ\[["'])INFERGATE_API_KEYS\b/,
    why: "the server's key list given to a client: a client reads INFERGATE_API_KEY",
  },
];

const root = repositoryRoot();
const skipped = new Set(['node_modules', 'dist', 'coverage', '.turbo']);

function files(folder: string, wanted: (name: string) => boolean): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    if (skipped.has(name)) return [];
    const path = join(folder, name);
    return statSync(path).isDirectory() ? files(path, wanted) : wanted(name) ? [path] : [];
  });
}

/** Every `file:line: text (why)` of `text` that uses a key variable the wrong way. */
function wrongKeyVariableUses(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, index) =>
      wrongUses
        .filter(({ pattern }) => pattern.test(line))
        .map(({ why }) => `${file}:${index + 1}: ${line.trim()} (${why})`),
    );
}

const pages = [
  join(root, 'README.md'),
  ...files(join(root, 'docs'), (name) => name.endsWith('.md')),
  ...['packages', 'apps'].flatMap((group) =>
    files(join(root, group), (name) => name === 'README.md'),
  ),
];

describe('the client key variable is INFERGATE_API_KEY everywhere a reader copies from', () => {
  it('finds README.md, docs/ and the package READMEs', () => {
    const names = pages.map((page) => relative(root, page));
    expect(names).toEqual(
      expect.arrayContaining([
        'README.md',
        join('docs', 'api.md'),
        join('packages', 'sdk', 'README.md'),
        join('apps', 'edge', 'README.md'),
      ]),
    );
  });

  it('catches the old name and the server list used as a client key, naming file and line', () => {
    const text =
      'ok\nexport INFERGATE_KEY=ig-1\ncurl -H "Authorization: Bearer $INFERGATE_API_KEYS"\napi_key=os.environ["INFERGATE_API_KEYS"]\nINFERGATE_API_KEYS=k pnpm start';
    expect(wrongKeyVariableUses('x.md', text).map((use) => use.slice(0, use.indexOf(' ')))).toEqual(
      ['x.md:2:', 'x.md:3:', 'x.md:4:'],
    );
  });

  it('README.md, docs/**/*.md and every package README', () => {
    const wrong = pages.flatMap((page) =>
      wrongKeyVariableUses(relative(root, page), readFileSync(page, 'utf8')),
    );
    expect(wrong.join('\n'), 'use INFERGATE_API_KEY on the client side').toBe('');
  });

  it("the /docs page's code samples", () => {
    const document = buildOpenApiDocument({ catalogue: defaultCatalogue, routes: routeTable });
    const samples = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, operation]) =>
        (
          (operation as { 'x-codeSamples'?: Array<{ label: string; source: string }> })[
            'x-codeSamples'
          ] ?? []
        ).map((sample) => ({
          where: `${method.toUpperCase()} ${path} (${sample.label})`,
          source: sample.source,
        })),
      ),
    );
    expect(samples.length).toBeGreaterThan(0);
    expect(
      samples.filter((sample) => /\bINFERGATE_API_KEY\b/.test(sample.source)).length,
    ).toBeGreaterThan(0);
    const wrong = samples.flatMap((sample) => wrongKeyVariableUses(sample.where, sample.source));
    expect(wrong.join('\n'), 'use INFERGATE_API_KEY on the client side').toBe('');
  });
});
