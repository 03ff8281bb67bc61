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
    (_, index) =>
      `{"index":${index},"object":"embedding","embedding":[${Array.from({ length: 1024 }, number).join(',')}]}`,
  );
  return new TextEncoder().encode(
    `{"object":"list","data":[${data.join(',')}],"usage":{"prompt_tokens":16,"total_tokens":16}}`,
  );
}

describe('the WebAssembly checks of json-text-scanner on Node', () => {
  it('is the one in use, and reads an answer as the JavaScript loop does, to the byte where one is wrong', () => {
    expect(wasmTextCheckInUse()).toBe(true);
    const bytes = answer();
    const texts = (read: ReturnType<typeof readEmbeddingUpstreamResponse>) =>
      read.vectors.map((vector) => [vector.start, vector.end, vector.length]);
    const byWasm = texts(readEmbeddingUpstreamResponse(bytes, 16, 1024));
    useWasmTextCheck(false);
    try {
      expect(texts(readEmbeddingUpstreamResponse(bytes, 16, 1024))).toEqual(byWasm);
      // A wrong byte in every place of three stretches of the fifth list: the same message, naming the
      // same offset. WebAssembly reads a long list as two halves split at a `,` near its middle, so the
      // stretches are its start, around its middle and before its `]`.
      const text = new TextDecoder().decode(bytes);
      const listStart = text.indexOf('"embedding":[', 5 * 20_000) + 13;
      const listEnd = text.indexOf(']', listStart);
      const middle = listStart + Math.floor((listEnd - listStart) / 2);
      const places = [listStart, middle - 150, listEnd - 100].flatMap((from) =>
        Array.from({ length: 200 }, (_, index) => from + index),
      );
      const message = (answerBytes: Uint8Array, wasm: boolean) => {
        useWasmTextCheck(wasm);
        try {
          readEmbeddingUpstreamResponse(answerBytes, 16, 1024);
          return 'read';
        } catch (error) {
          return JSON.stringify((error as { cause?: unknown }).cause);
        }
      };
      for (const place of places) {
        const broken = bytes.slice();
        broken[place] = 0x3a;
        expect(message(broken, true), `place ${place}`).toBe(message(broken, false));
      }
      // The answer cut short in the last list, its `]` never sent: refused at the same place.
      const lastEnd = text.lastIndexOf(']', text.indexOf('"usage"'));
      for (let cut = lastEnd - 40; cut <= lastEnd; cut += 1) {
        const cutShort = bytes.slice(0, cut);
        expect(message(cutShort, true), `cut at ${cut}`).toBe(message(cutShort, false));
        expect(message(cutShort, true), `cut at ${cut}`).not.toBe('read');
      }
    } finally {
      useWasmTextCheck(true);
    }
  });
});
