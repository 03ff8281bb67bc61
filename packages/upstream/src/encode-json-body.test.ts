import { describe, expect, it } from 'vitest';
import { SplitDataUrl } from '@infergate/core';
import {
  encodeJsonBody,
  jsonBodyBytes,
  jsonBodySlices,
  type JsonRequestBody,
} from './encode-json-body.js';

const decode = (body: JsonRequestBody) => new TextDecoder().decode(jsonBodyBytes(body));

describe('encodeJsonBody', () => {
  it("writes a form file's split data URL as its joined URL, its payload never copied", () => {
    const payload = 'iVBORw0KGgo+/='.repeat(20_000);
    const split = new SplitDataUrl('image/png', payload);
    const odd = new SplitDataUrl('image/x-"odd"\\', 'AAAA');
    const value = {
      model: 'alpha-image-edit',
      images: [{ image_url: split }, { image_url: odd }],
      mask: { image_url: split },
      prompt: 'a "sky" ✓',
    };
    const body = encodeJsonBody(value);
    const joined = JSON.stringify({
      ...value,
      images: [{ image_url: split.toJSON() }, { image_url: odd.toJSON() }],
      mask: { image_url: split.toJSON() },
    });
    expect(decode(body)).toBe(joined);
    if (typeof body === 'string' || body instanceof Uint8Array) throw new Error('expected pieces');
    expect(body.byteLength).toBe(new TextEncoder().encode(joined).byteLength);
    expect(body.pieces.filter((piece) => piece === payload)).toHaveLength(2);
  });

  it('gives the bytes of JSON.stringify for small values', () => {
    const value = {
      model: 'm',
      messages: [{ role: 'user', content: 'héllo "quoted" \\ ✓ 🎉\n' }],
      n: 1,
      ok: true,
      none: null,
    };
    expect(decode(encodeJsonBody(value))).toBe(JSON.stringify(value));
  });

  it('gives the bytes of JSON.stringify when large data URLs are written straight into the body', () => {
    const image = `data:image/png;base64,${'iVBORw0KGgo+/='.repeat(20_000)}`;
    const value = {
      model: 'alpha-image-edit',
      prompt: 'a "sky" ✓',
      images: [{ image_url: image }, { image_url: `${image}AA` }],
      size: '1024x1024',
    };
    const body = encodeJsonBody(value);
    if (typeof body === 'string' || body instanceof Uint8Array)
      throw new Error('expected text pieces');
    expect(body.byteLength).toBe(new TextEncoder().encode(JSON.stringify(value)).byteLength);
    expect(decode(body)).toBe(JSON.stringify(value));
    expect(JSON.parse(decode(body))).toEqual(value);
  });

  it('escapes large strings that are not plain ASCII as JSON.stringify does', () => {
    const value = { text: `${'a"b\\c\n✓'.repeat(20_000)}` };
    expect(decode(encodeJsonBody(value))).toBe(JSON.stringify(value));
  });

  it('is not confused by a small string that looks like its placeholder', () => {
    const value = { trap: '\u0000infergate-large-string\u0000', big: 'x'.repeat(70_000) };
    expect(decode(encodeJsonBody(value))).toBe(JSON.stringify(value));
  });

  it('gives slices of a long string whose concatenation is the body, never cutting a character', () => {
    const long = 'a\u00e9\u{1F600}'.repeat(40_000);
    const value = { text: long, image: `data:,${'AAAA'.repeat(50_000)}`, after: long };
    const body = encodeJsonBody(value);
    if (typeof body === 'string' || body instanceof Uint8Array)
      throw new Error('expected text pieces');
    const slices = [...jsonBodySlices(body, 1_000)];
    expect(slices.join('')).toBe(JSON.stringify(value));
    expect(new TextEncoder().encode(slices.join('')).byteLength).toBe(body.byteLength);
    // The non-ASCII text around the data URL stays whole; only the plain-ASCII data URL is cut.
    expect(slices.filter((slice) => slice.length > 1_000)).toHaveLength(2);
    expect(slices.filter((slice) => slice.length === 1_000)).toHaveLength(200);
  });
});
