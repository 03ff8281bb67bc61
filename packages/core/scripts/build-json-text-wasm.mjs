// Assembles src/transforms/json-text-check.wat into src/transforms/json-text-wasm.ts (the module's
// bytes as base64), with wabt at the version package.json pins and SIMD on. Run after a change to the
// .wat: `pnpm --filter @infergate/core build:wasm`. test/json-text-wasm-source.node.test.ts fails
// while the committed bytes are not the .wat's.
import { readFileSync, writeFileSync } from 'node:fs';
import { Buffer } from 'node:buffer';
import process from 'node:process';
import { URL } from 'node:url';
import wabt from 'wabt';

const source = new URL('../src/transforms/json-text-check.wat', import.meta.url);
const target = new URL('../src/transforms/json-text-wasm.ts', import.meta.url);

const module = (await wabt()).parseWat('json-text-check.wat', readFileSync(source, 'utf8'), {
  simd: true,
});
let bytes;
try {
  module.resolveNames();
  module.validate();
  bytes = module.toBinary({}).buffer;
} finally {
  module.destroy();
}
const base64 = Buffer.from(bytes).toString('base64');
writeFileSync(
  target,
  `// Generated from json-text-check.wat by scripts/build-json-text-wasm.mjs: do not edit.\nexport const jsonTextWasmBase64 =\n  '${base64}';\n`,
);
process.stdout.write(
  `json-text-wasm.ts: ${bytes.length} bytes, ${base64.length} base64 characters\n`,
);
