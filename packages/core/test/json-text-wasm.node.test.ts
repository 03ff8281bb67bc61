import { describe, expect, it } from 'vitest';
import { readEmbeddingUpstreamResponse } from '../src/protocols/openai/embedding-upstream-response.js';
import { useWasmTextCheck, wasmTextCheckInUse } from '../src/transforms/json-text-wasm-check.js';

// A model server's answer: 16 vectors of 1,024 numbers as Python writes float32 values.
function answer(): Uint8Array {
  let seed = 7;
  const number = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return ((seed / 2 ** 31 - 0.5) / 5).toPrecision(17);
  };
  const data = Array.from(
    { length: 16 },
    (_, index) => `{"index":${index},"object":"embedding","embedding":[${Array.from({ length: 1024 }, number).join(',')}]}`,
  );
  return new TextEncoder().encode(`{"object":"list","data":[${data.join(',')}],"usage":{"prompt_tokens":16,"total_tokens":16}}`);
}

describe('the WebAssembly checks of json-text-scanner on Node', () => {
  it('is the one in use, and reads an answer as the JavaScript loop does, to the byte where one is wrong', () => {
    expect(wasmTextCheckInUse()).toBe(true);
    const bytes = answer();
    const texts = (read: ReturnType<typeof readEmbeddingUpstreamResponse>) => read.vectors.map((vector) => [vector.start, vector.end, vector.length]);
    const byWasm = texts(readEmbeddingUpstreamResponse(bytes, 16, 1024));
    useWasmTextCheck(false);
    try {
      expect(texts(readEmbeddingUpstreamResponse(bytes, 16, 1024))).toEqual(byWasm);
      // A wrong byte in every place of a stretch of the fifth list: the same message, naming the same offset.
      const listStart = new TextDecoder().decode(bytes).indexOf('"embedding":[', 5 * 20_000) + 13;
      for (let place = listStart; place < listStart + 200; place += 1) {
        const broken = bytes.slice();
        broken[place] = 0x3a;
        const message = (wasm: boolean) => {
          useWasmTextCheck(wasm);
          try {
            readEmbeddingUpstreamResponse(broken, 16, 1024);
            return 'read';
          } catch (error) {
            return JSON.stringify((error as { cause?: unknown }).cause);
          }
        };
        expect(message(true), `place ${place}`).toBe(message(false));
      }
    } finally {
      useWasmTextCheck(true);
    }
  });
});
