import { describe, expect, it } from 'vitest';
import { nodeSha256 } from './node-sha256.js';

describe('nodeSha256', () => {
  it('gives the bytes WebCrypto gives, for ASCII and multi-byte keys', async () => {
    for (const text of ['ig-0123456789abcdef', 'clé-✓-🎉', '']) {
      const web = new Uint8Array(
        await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)),
      );
      expect([...nodeSha256(text)]).toEqual([...web]);
    }
  });
});
