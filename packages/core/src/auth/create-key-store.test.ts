import { describe, expect, it, vi } from 'vitest';
import { createKeyStore } from './create-key-store.js';

const longPrefix = 'sk-infergate-0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A store over 'sk-a' and 'sk-b' (named b) with a synchronous digest, as Node's createHash gives:
 * precomputed here with WebCrypto, since core has no node:crypto. `seen` lists every text hashed.
 */
async function storeWithSyncDigest() {
  const seen: string[] = [];
  const webDigest = async (text: string) =>
    new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  const known = new Map(
    await Promise.all(
      ['sk-a', 'sk-b', 'sk-wrong'].map(async (text) => [text, await webDigest(text)] as const),
    ),
  );
  const sync = createKeyStore(['sk-a', { key: 'sk-b', name: 'b' }], {
    sha256: (text) => {
      seen.push(text);
      return known.get(text) as Uint8Array;
    },
  });
  return { sync, seen };
}

describe('createKeyStore', () => {
  const store = createKeyStore([
    `${longPrefix}-A`,
    { key: 'sk-ci', name: 'ci', models: ['general-std'] },
    'sk-third',
  ]);

  it('knows each configured key, naming unnamed keys by position', async () => {
    expect(await store.verify(`${longPrefix}-A`)).toEqual({ name: 'key-1' });
    expect(await store.verify('sk-ci')).toEqual({ name: 'ci', models: ['general-std'] });
    expect(await store.verify('sk-third')).toEqual({ name: 'key-3' });
  });

  it('refuses a wrong key', async () => {
    expect(await store.verify('sk-wrong')).toBeUndefined();
  });

  it('refuses a key that shares a long prefix, or is a prefix, or extends a key', async () => {
    expect(await store.verify(`${longPrefix}-B`)).toBeUndefined();
    expect(await store.verify(longPrefix)).toBeUndefined();
    expect(await store.verify(`${longPrefix}-AA`)).toBeUndefined();
  });

  it('refuses the empty token', async () => {
    expect(await store.verify('')).toBeUndefined();
  });

  it('refuses everything when no key is configured', async () => {
    expect(await createKeyStore([]).verify('anything')).toBeUndefined();
  });

  it('gives the first entry when a key is listed twice', async () => {
    expect(
      await createKeyStore([
        { key: 'dup', name: 'first' },
        { key: 'dup', name: 'second' },
      ]).verify('dup'),
    ).toEqual({ name: 'first' });
  });

  it('refuses to store an empty key', () => {
    expect(() => createKeyStore(['ok', ''])).toThrow(TypeError);
  });

  it('compares the token against every stored digest, not stopping at the first match', async () => {
    const digest = vi.spyOn(crypto.subtle, 'digest');
    const keys = Array.from({ length: 5 }, (_, index) => `key-number-${index}`);
    const many = createKeyStore(keys);
    await many.verify('key-number-0');
    // 5 stored digests computed at creation plus the token's: the token is hashed, never compared raw.
    expect(digest).toHaveBeenCalledTimes(6);
    digest.mockRestore();
  });

  it('hands out a copy of the identity, so a caller cannot rename a key for later requests', async () => {
    const identity = await store.verify('sk-third');
    if (identity) identity.name = 'changed';
    expect(await store.verify('sk-third')).toEqual({ name: 'key-3' });
  });

  it("uses a synchronous digest when given one, with the same answers as WebCrypto's", async () => {
    const { sync, seen } = await storeWithSyncDigest();
    expect(await sync.verify('sk-b')).toEqual({ name: 'b' });
    expect(await sync.verify('sk-a')).toEqual({ name: 'key-1' });
    expect(await sync.verify('sk-wrong')).toBeUndefined();
    expect(seen).toEqual(['sk-a', 'sk-b', 'sk-b', 'sk-a', 'sk-wrong']);
  });

  it('hashes a key once: its later requests reuse the digest, answered without a promise', async () => {
    const { sync, seen } = await storeWithSyncDigest();
    expect(await sync.verify('sk-b')).toEqual({ name: 'b' });
    seen.length = 0;
    for (let round = 0; round < 3; round += 1) {
      const again = sync.verify('sk-b');
      expect(again).not.toBeInstanceOf(Promise);
      expect(again).toEqual({ name: 'b' });
      expect(sync.verify('sk-wrong')).toBeUndefined();
    }
    // The wrong token is hashed each time; the key is not hashed again.
    expect(seen).toEqual(['sk-wrong', 'sk-wrong', 'sk-wrong']);
  });

  it('reuses the digest of a known key with the asynchronous WebCrypto digest too, and still refuses near misses', async () => {
    const digest = vi.spyOn(crypto.subtle, 'digest');
    const two = createKeyStore([`${longPrefix}-A`, 'sk-other']);
    expect(await two.verify(`${longPrefix}-A`)).toEqual({ name: 'key-1' });
    expect(digest).toHaveBeenCalledTimes(3);
    expect(two.verify(`${longPrefix}-A`)).toEqual({ name: 'key-1' });
    expect(await two.verify(`${longPrefix}-B`)).toBeUndefined();
    expect(await two.verify(`${longPrefix}-A `)).toBeUndefined();
    expect(await two.verify('sk-other')).toEqual({ name: 'key-2' });
    expect(digest).toHaveBeenCalledTimes(6);
    digest.mockRestore();
  });
});
