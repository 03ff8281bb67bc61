import { readFileSync } from 'node:fs';
import wabt from 'wabt';
import { describe, expect, it } from 'vitest';
import { jsonTextWasmBase64 } from '../src/transforms/json-text-wasm.js';

// The WebAssembly core ships is the .wat beside it, assembled by wabt at the version package.json
// pins (SIMD on): what `pnpm --filter @infergate/core build:wasm` writes into json-text-wasm.ts.
describe('json-text-wasm.ts', () => {
  it('holds json-text-check.wat as wabt assembles it, byte for byte', async () => {
    const wat = readFileSync(
      new URL('../src/transforms/json-text-check.wat', import.meta.url),
      'utf8',
    );
    const module = (await wabt()).parseWat('json-text-check.wat', wat, { simd: true });
    let assembled: Uint8Array;
    try {
      module.resolveNames();
      module.validate();
      assembled = module.toBinary({}).buffer;
    } finally {
      module.destroy();
    }
    const committed = Uint8Array.from(atob(jsonTextWasmBase64), (character) =>
      character.charCodeAt(0),
    );
    // The offsets that differ, so that a failure says where, not only that the blobs differ.
    const differing: number[] = [];
    for (let at = 0; at < Math.max(assembled.length, committed.length); at += 1)
      if (assembled[at] !== committed[at]) differing.push(at);
    expect(
      { length: committed.length, differing: differing.slice(0, 16) },
      'json-text-wasm.ts is not json-text-check.wat: run `pnpm --filter @infergate/core build:wasm` and commit it',
    ).toEqual({ length: assembled.length, differing: [] });
  });
});
