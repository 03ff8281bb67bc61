/// <reference types="node" />
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What is published: the bundle and its declarations, built here as `pnpm build` builds them. Core
// gives the SDK its paths and response types at build time; neither core nor zod may be left to load.
const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const outDir = mkdtempSync(join(tmpdir(), 'infergate-sdk-bundle-'));
let bundle = '';
let declarations = '';

beforeAll(() => {
  execFileSync('pnpm', ['exec', 'tsup', '--out-dir', outDir], { cwd: packageRoot, stdio: 'pipe' });
  bundle = readFileSync(join(outDir, 'index.js'), 'utf8');
  declarations = readFileSync(join(outDir, 'index.d.ts'), 'utf8');
}, 300_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const imported = (text: string): string[] =>
  [...text.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((match) => match[1] ?? '');

describe('the built SDK', () => {
  it("bundles core's route paths and imports nothing", () => {
    expect(imported(bundle)).toEqual([]);
    expect(bundle).not.toMatch(/zod|@infergate\/core/);
    expect(bundle).toContain('"/v1/chat/completions"');
    expect(bundle).toContain('"/compat/v2/rerank"');
  });

  it("declares core's response types in its own .d.ts, with no import of core or zod", () => {
    expect(imported(declarations)).toEqual([]);
    expect(declarations).not.toMatch(/zod|@infergate\/core/);
    expect(declarations).toMatch(/interface ChatCompletion \{/);
    expect(declarations).toMatch(/interface ResponsesObject extends ResponsesEcho \{/);
  });
});
