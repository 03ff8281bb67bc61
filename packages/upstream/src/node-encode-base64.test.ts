import { encodeBase64 } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import { nodeEncodeBase64 } from './node-encode-base64.js';

describe('nodeEncodeBase64', () => {
  it("encodes exactly the view it is given, as core's encoder does", () => {
    const whole = new Uint8Array(Array.from({ length: 259 }, (_, index) => (index * 37) % 256));
    for (const [start, end] of [
      [0, 0],
      [0, 1],
      [3, 5],
      [1, 259],
      [0, 258],
    ] as const) {
      const view = whole.subarray(start, end);
      expect(nodeEncodeBase64(view)).toBe(encodeBase64(view));
    }
    expect(nodeEncodeBase64(new TextEncoder().encode('foobar'))).toBe('Zm9vYmFy');
  });
});
