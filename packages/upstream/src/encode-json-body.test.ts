import { describe, expect, it } from 'vitest';
import { encodeJsonBody } from './encode-json-body.js';

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('encodeJsonBody', () => {
  it('gives the bytes of JSON.stringify for small values', () => {
    const value = { model: 'm', messages: [{ role: 'user', content: 'héllo "quoted" \\ ✓ 🎉\n' }], n: 1, ok: true, none: null };
    expect(decode(encodeJsonBody(value))).toBe(JSON.stringify(value));
  });

  it('gives the bytes of JSON.stringify when large data URLs are written straight into the body', () => {
    const image = `data:image/png;base64,${'iVBORw0KGgo+/='.repeat(20_000)}`;
    const value = { model: 'alpha-image-edit', prompt: 'a "sky" ✓', images: [{ image_url: image }, { image_url: `${image}AA` }], size: '1024x1024' };
    const bytes = encodeJsonBody(value);
    expect(bytes.byteLength).toBe(new TextEncoder().encode(JSON.stringify(value)).byteLength);
    expect(decode(bytes)).toBe(JSON.stringify(value));
    expect(JSON.parse(decode(bytes))).toEqual(value);
  });

  it('escapes large strings that are not plain ASCII as JSON.stringify does', () => {
    const value = { text: `${'a"b\\c\n✓'.repeat(20_000)}` };
    expect(decode(encodeJsonBody(value))).toBe(JSON.stringify(value));
  });

  it('is not confused by a small string that looks like its placeholder', () => {
    const value = { trap: '\u0000infergate-large-string\u0000', big: 'x'.repeat(70_000) };
    expect(decode(encodeJsonBody(value))).toBe(JSON.stringify(value));
  });
});
