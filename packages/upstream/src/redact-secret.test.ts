import { describe, expect, it } from 'vitest';
import { redactSecret } from './redact-secret.js';

describe('redactSecret', () => {
  const key = 'upstream-canary-key-0123456789';

  it('removes every occurrence of the key', () => {
    const out = redactSecret(
      `{"error":{"message":"bad credentials: Bearer ${key} (${key})"}}`,
      key,
    );
    expect(out).not.toContain(key);
    expect(out).not.toContain(key.slice(0, 12));
    expect(out).toContain('[redacted]');
  });

  it('removes the base64 form of the key, padded or not', () => {
    // base64 of the key computed independently of the implementation's encoder
    const encoded = Buffer.from(key, 'utf8').toString('base64');
    expect(redactSecret(`Basic ${encoded}`, key)).toBe('Basic [redacted]');
    expect(redactSecret(`Basic ${encoded.replace(/=+$/, '')}`, key)).toBe('Basic [redacted]');
  });

  it('leaves text alone when there is no key', () => {
    expect(redactSecret('plain message', undefined)).toBe('plain message');
  });
});
