import { describe, expect, it } from 'vitest';
import {
  encodeBase64,
  encodeFloat32Base64,
  float32LittleEndianBytes,
} from './encode-float32-base64.js';

/** Independent decoder: atob to bytes, then IEEE-754 float32 read little-endian (what openai-node does). */
function decodeFloat32Base64(text: string): number[] {
  const binary = atob(text);
  const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  const out: number[] = [];
  for (let offset = 0; offset < bytes.length; offset += 4) out.push(view.getFloat32(offset, true));
  return out;
}

describe('encodeBase64 (RFC 4648)', () => {
  const ascii = (text: string) => new TextEncoder().encode(text);

  it('matches the RFC 4648 section 10 test vectors, padding included', () => {
    expect(encodeBase64(ascii(''))).toBe('');
    expect(encodeBase64(ascii('f'))).toBe('Zg==');
    expect(encodeBase64(ascii('fo'))).toBe('Zm8=');
    expect(encodeBase64(ascii('foo'))).toBe('Zm9v');
    expect(encodeBase64(ascii('foob'))).toBe('Zm9vYg==');
    expect(encodeBase64(ascii('fooba'))).toBe('Zm9vYmE=');
    expect(encodeBase64(ascii('foobar'))).toBe('Zm9vYmFy');
  });

  it('uses the standard alphabet (+ and /) for every byte value, as btoa does', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => 255 - index);
    expect(encodeBase64(bytes)).toBe(btoa(String.fromCharCode(...bytes)));
    expect(encodeBase64(new Uint8Array([0xfb, 0xff]))).toBe('+/8=');
  });

  it('encodes a subarray view by its own bytes only', () => {
    const whole = new Uint8Array([1, 2, 0x66, 0x6f, 0x6f, 9]);
    expect(encodeBase64(whole.subarray(2, 5))).toBe('Zm9v');
  });
});

describe('encodeFloat32Base64', () => {
  it('writes IEEE-754 float32 bytes little-endian: 1.0, -2.0, 0.5', () => {
    // 1.0 = 0x3F800000, -2.0 = 0xC0000000, 0.5 = 0x3F000000, each stored low byte first.
    expect(Array.from(float32LittleEndianBytes([1, -2, 0.5]))).toEqual([
      0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x3f,
    ]);
    expect(encodeFloat32Base64([1, -2, 0.5])).toBe('AACAPwAAAMAAAAA/');
  });

  it('round-trips through a little-endian decoder at float32 precision, 4 bytes per dimension', () => {
    const vector = Array.from(
      { length: 1025 },
      (_, index) => Math.sin(index * 0.37) * (index % 7 === 0 ? 1e-30 : 3.5),
    );
    const encoded = encodeFloat32Base64(vector);
    expect(atob(encoded)).toHaveLength(vector.length * 4);
    expect(decodeFloat32Base64(encoded)).toEqual(vector.map((value) => Math.fround(value)));
  });

  it('keeps -0 and subnormals exact', () => {
    const decoded = decodeFloat32Base64(encodeFloat32Base64([-0, 1.401298464324817e-45]));
    expect(Object.is(decoded[0], -0)).toBe(true);
    expect(decoded[1]).toBe(1.401298464324817e-45);
  });

  it('encodes an empty vector as an empty string', () => {
    expect(encodeFloat32Base64([])).toBe('');
  });
});
