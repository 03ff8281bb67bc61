import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Core runs unchanged on Node, workerd, Deno, Bun and in a browser (docs/design.md): no Node builtin,
// no framework, no network client, none of our other packages, no `process` or `Buffer`.
const forbiddenPackages = ['fastify', 'hono', 'undici', 'axios', 'node-fetch', 'ws'];
const nodeBuiltins = new Set(builtinModules.map((name) => name.replace(/^node:/, '')));

const specifierPatterns = [
  /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, // import x from 'a', export * from 'a'
  /\bimport\s*['"]([^'"]+)['"]/g, // import 'a'
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // import('a')
  /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g, // require('a')
];

/** Why a module specifier is not allowed in core, or undefined when it is. */
function forbiddenSpecifier(specifier: string): string | undefined {
  if (specifier.startsWith('node:')) return 'a node:* import';
  const [scopeOrName = '', name] = specifier.split('/');
  const packageName = scopeOrName.startsWith('@') ? `${scopeOrName}/${name ?? ''}` : scopeOrName;
  if (nodeBuiltins.has(packageName) || nodeBuiltins.has(specifier)) return 'a Node builtin';
  if (scopeOrName === '@infergate') return 'another @infergate package';
  if (scopeOrName === '@hono' || forbiddenPackages.includes(packageName))
    return 'a framework or network client';
  return undefined;
}

// Comments may mention Buffer or process (to say why they are not used); only code counts.
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** Every problem of one source file, as readable lines. */
function portabilityProblems(source: string): string[] {
  const code = withoutComments(source);
  const problems: string[] = [];
  for (const pattern of specifierPatterns) {
    for (const match of code.matchAll(pattern)) {
      const specifier = match[1] ?? '';
      const reason = forbiddenSpecifier(specifier);
      if (reason) problems.push(`imports '${specifier}' (${reason})`);
    }
  }
  if (/(?<![\w.$'"])process\s*\./.test(code)) problems.push('references process.');
  if (/(?<![\w.$'"])Buffer\b/.test(code)) problems.push('references Buffer');
  return problems;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(?:ts|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

const sourceRoot = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

describe('the portability check itself', () => {
  it.each([
    ["import { readFileSync } from 'node:fs';", "imports 'node:fs'"],
    ["import path from 'path';", "imports 'path'"],
    ["import { createHash } from 'crypto';", "imports 'crypto'"],
    ["export { x } from 'fs/promises';", "imports 'fs/promises'"],
    ["import Fastify from 'fastify';", "imports 'fastify'"],
    ["import { Hono } from 'hono';", "imports 'hono'"],
    ["import { serve } from '@hono/node-server';", "imports '@hono/node-server'"],
    ["import { request } from 'undici';", "imports 'undici'"],
    ["const ws = await import('ws');", "imports 'ws'"],
    ["import axios from 'axios';", "imports 'axios'"],
    ["import fetch from 'node-fetch';", "imports 'node-fetch'"],
    ["import type { UpstreamPort } from '@infergate/upstream';", "imports '@infergate/upstream'"],
    ['const port = process.env.PORT;', 'references process.'],
    ["const bytes = Buffer.from('x');", 'references Buffer'],
  ])('flags %s', (source, problem) => {
    expect(portabilityProblems(source).join('; ')).toContain(problem);
  });

  it.each([
    "import { z } from 'zod';",
    "import type { Catalogue } from '../catalogue/catalogue-types.js';",
    "import { parseJson } from './parse-json.js';",
    '// core uses Uint8Array, not Buffer; it never reads process.env',
    "const message = 'http://local-backend.invalid'; // no Buffer here",
    'const processed = items.process.length; const bufferLength = 1;',
  ])('accepts %s', (source) => {
    expect(portabilityProblems(source)).toEqual([]);
  });
});

describe('packages/core/src', () => {
  const files = sourceFiles(sourceRoot);

  it('holds source files to check', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('imports no Node builtin, framework, network client or other @infergate package, and uses no process or Buffer', () => {
    const problems = files.flatMap((file) =>
      portabilityProblems(readFileSync(file, 'utf8')).map(
        (problem) => `${relative(sourceRoot, file)}: ${problem}`,
      ),
    );
    expect(problems).toEqual([]);
  });
});
