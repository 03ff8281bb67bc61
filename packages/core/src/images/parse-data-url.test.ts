import { describe, expect, it } from 'vitest';
import { parseDataUrl } from './parse-data-url.js';

describe('parseDataUrl', () => {
  it('splits media type and base64 payload (RFC 2397)', () => {
    // "SGVsbG8sIFdvcmxkIQ==" is RFC 4648 base64 of "Hello, World!" (13 bytes).
    const dataUrl = parseDataUrl('data:Text/Plain;charset=utf-8;base64,SGVsbG8sIFdvcmxkIQ==');
    expect(dataUrl).toMatchObject({ base64: true, mimeType: 'text/plain', byteLength: 13 });
    if (!dataUrl?.base64) throw new Error('expected base64');
    expect(new TextDecoder().decode(dataUrl.decodePrefix(100))).toBe('Hello, World!');
    expect(new TextDecoder().decode(dataUrl.decodePrefix(5))).toBe('Hello');
    expect(dataUrl.decodePrefix(0)).toEqual(new Uint8Array(0));
  });

  it('computes the decoded length of unpadded payloads', () => {
    // RFC 4648 §10 test vectors without padding: "Zg" = "f", "Zm8" = "fo", "Zm9v" = "foo".
    expect(parseDataUrl('data:image/png;base64,Zg')).toMatchObject({ byteLength: 1 });
    expect(parseDataUrl('data:image/png;base64,Zm8')).toMatchObject({ byteLength: 2 });
    expect(parseDataUrl('data:image/png;base64,Zm9vYg==')).toMatchObject({ byteLength: 4 });
  });

  it('decodes only the prefix it is asked for', () => {
    // The payload is valid for its first 8 characters and garbage after: a 6-byte prefix never reaches it.
    const dataUrl = parseDataUrl('data:image/png;base64,Zm9vYmFy!!!!not base64');
    if (!dataUrl?.base64) throw new Error('expected base64');
    expect(new TextDecoder().decode(dataUrl.decodePrefix(6))).toBe('foobar');
    expect(dataUrl.decodePrefix(9)).toBeUndefined();
  });

  it('refuses whitespace inside the decoded prefix rather than shifting offsets', () => {
    const dataUrl = parseDataUrl('data:image/png;base64,Zm9v YmFy');
    if (!dataUrl?.base64) throw new Error('expected base64');
    expect(dataUrl.decodePrefix(6)).toBeUndefined();
  });

  it('tells a non-base64 data URL apart', () => {
    expect(parseDataUrl('data:text/html,<h1>hi</h1>')).toEqual({
      base64: false,
      mimeType: 'text/html',
    });
    // ";base64" must be the last token before the comma.
    expect(parseDataUrl('data:image/png;base64;x=1,AAAA')).toEqual({
      base64: false,
      mimeType: 'image/png',
    });
    expect(parseDataUrl('data:,hello')).toEqual({ base64: false, mimeType: '' });
  });

  it('is undefined for other schemes and for a data URL without a comma', () => {
    for (const value of [
      'http://127.0.0.1/',
      'https://example.com/a.png',
      'file:///etc/passwd',
      ' data:image/png;base64,AAAA',
      'data:image/png;base64',
      'dat',
      '',
    ]) {
      expect(parseDataUrl(value)).toBeUndefined();
    }
    expect(parseDataUrl('DATA:image/png;BASE64,AAAA')).toMatchObject({
      base64: true,
      mimeType: 'image/png',
    });
  });
});
