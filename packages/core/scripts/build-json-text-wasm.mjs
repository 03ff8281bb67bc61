// Compiles src/transforms/json-text-check.wat into src/transforms/json-text-wasm.ts (the module's
// bytes as base64). A maintainer's tool, run after a change to the .wat: wabt's wat2wasm at a pinned
// version through npx, so the package does not depend on it. The tests hold the bytes to the grammar.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('../src/transforms/', import.meta.url));
const output = join(mkdtempSync(join(tmpdir(), 'json-text-')), 'json-text-check.wasm');
execFileSync('npx', ['--yes', '--package=wabt@1.0.39', 'wat2wasm', join(here, 'json-text-check.wat'), '-o', output], { stdio: 'inherit' });
const base64 = readFileSync(output).toString('base64');
writeFileSync(
  join(here, 'json-text-wasm.ts'),
  `// Generated from json-text-check.wat by scripts/build-json-text-wasm.mjs: do not edit.\nexport const jsonTextWasmBase64 =\n  '${base64}';\n`,
);
process.stdout.write(`json-text-wasm.ts: ${base64.length} base64 characters\n`);
