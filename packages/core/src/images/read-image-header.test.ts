import { describe, expect, it } from 'vitest';
import { probeImageHeader, readImageHeader } from './read-image-header.js';
import {
  gifBytes,
  jpegBytes,
  pngBytes,
  webpExtendedBytes,
  webpLosslessBytes,
  webpLossyBytes,
} from './test-image-bytes.js';

describe('readImageHeader: PNG', () => {
  it('reads width, height and bit depth from IHDR', () => {
    // Written out by hand: signature, length 13, "IHDR", width 640, height 480, depth 16, colour type 6.
    const bytes = new Uint8Array([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0,
      0x02, 0x80, 0, 0, 0x01, 0xe0, 16, 6, 0, 0, 0,
    ]);
    expect(readImageHeader(bytes)).toEqual({
      format: 'png',
      width: 640,
      height: 480,
      bitDepth: 16,
    });
  });

  it('reads the fault matrix image of 4097x10', () => {
    expect(readImageHeader(pngBytes(4097, 10))).toEqual({
      format: 'png',
      width: 4097,
      height: 10,
      bitDepth: 8,
    });
  });

  it('refuses a bit depth PNG does not define, a zero side and a first chunk other than IHDR', () => {
    expect(readImageHeader(pngBytes(10, 10, 3))).toBeUndefined();
    expect(readImageHeader(pngBytes(0, 10))).toBeUndefined();
    const notIhdr = pngBytes(10, 10);
    notIhdr[12] = 0x43; // "CgBI"-style chunk first
    expect(readImageHeader(notIhdr)).toBeUndefined();
  });

  it('is undefined for a PNG cut inside IHDR', () => {
    expect(readImageHeader(pngBytes(10, 10).subarray(0, 24))).toBeUndefined();
    expect(readImageHeader(pngBytes(10, 10).subarray(0, 5))).toBeUndefined();
  });
});

describe('readImageHeader: JPEG', () => {
  it('reads a baseline SOF0 written out by hand', () => {
    // SOI, APP0 "JFIF" (length 16), SOF0: length 17, precision 8, Y = 0x0438 (1080), X = 0x0780 (1920).
    const bytes = new Uint8Array([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00,
      0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x04, 0x38, 0x07, 0x80, 0x03,
      0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
    ]);
    expect(readImageHeader(bytes)).toEqual({
      format: 'jpeg',
      width: 1920,
      height: 1080,
      bitDepth: 8,
    });
  });

  it('reads a width of 5000 px (fault matrix row 9)', () => {
    expect(readImageHeader(jpegBytes(5000, 20))).toEqual({
      format: 'jpeg',
      width: 5000,
      height: 20,
      bitDepth: 8,
    });
  });

  it.each([0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf])(
    'reads the frame header after SOF marker byte %i',
    (marker) => {
      expect(readImageHeader(jpegBytes(33, 44, { sofMarker: marker, precision: 12 }))).toEqual({
        format: 'jpeg',
        width: 33,
        height: 44,
        bitDepth: 12,
      });
    },
  );

  it('does not take DHT (C4), JPG (C8) or DAC (CC) for a frame header', () => {
    for (const marker of [0xc4, 0xc8, 0xcc]) {
      // Such a segment in SOF position is skipped; the scan follows, so no frame header is found.
      expect(readImageHeader(jpegBytes(33, 44, { sofMarker: marker }))).toBeUndefined();
    }
  });

  it('skips long APP segments before the frame header', () => {
    expect(readImageHeader(jpegBytes(800, 600, { appBytes: 150_000 }))).toEqual({
      format: 'jpeg',
      width: 800,
      height: 600,
      bitDepth: 8,
    });
  });

  it('skips fill bytes before a marker', () => {
    const bytes = new Uint8Array([
      0xff, 0xd8, 0xff, 0xff, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x02, 0x00, 0x03, 0x01, 0x01,
      0x11, 0x00,
    ]);
    expect(readImageHeader(bytes)).toEqual({ format: 'jpeg', width: 3, height: 2, bitDepth: 8 });
  });

  it('says how many bytes it needs when the prefix ends inside the APP segments', () => {
    const full = jpegBytes(800, 600, { appBytes: 10_000 });
    expect(probeImageHeader(full.subarray(0, 4096))).toEqual({
      kind: 'truncated',
      needed: 2 + 4 + 10_000 + 2,
    });
  });

  it('is undefined when the scan starts before any frame header, or the height is deferred to DNL', () => {
    expect(
      readImageHeader(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 1, 1, 0, 0, 63, 0])),
    ).toBeUndefined();
    expect(readImageHeader(jpegBytes(100, 0))).toBeUndefined();
  });

  it('is undefined for a JPEG cut before its frame header', () => {
    expect(
      readImageHeader(jpegBytes(100, 100, { appBytes: 1000 }).subarray(0, 600)),
    ).toBeUndefined();
    expect(readImageHeader(new Uint8Array([0xff, 0xd8]))).toBeUndefined();
  });
});

describe('readImageHeader: WebP', () => {
  it('reads a lossy VP8 frame header written out by hand', () => {
    // RIFF, size, WEBP, "VP8 ", chunk size 10, frame tag 9D 01 2A start code, width 0x0190 (400), height 0x012C (300).
    const bytes = new Uint8Array([
      0x52, 0x49, 0x46, 0x46, 0x16, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x20, 0x0a,
      0, 0, 0, 0x50, 0x01, 0x00, 0x9d, 0x01, 0x2a, 0x90, 0x01, 0x2c, 0x01,
    ]);
    expect(readImageHeader(bytes)).toEqual({
      format: 'webp',
      width: 400,
      height: 300,
      bitDepth: 8,
    });
  });

  it('ignores the VP8 scale bits above the 14-bit sides', () => {
    const bytes = webpLossyBytes(400, 300);
    bytes[27] = (bytes[27] ?? 0) | 0xc0;
    expect(readImageHeader(bytes)).toMatchObject({ width: 400, height: 300 });
  });

  it('reads lossless VP8L sides written out by hand', () => {
    // width-1 = 399, height-1 = 300: 399 | 300 << 14 = 0x004B018F, little-endian 8F 01 4B 00.
    const bytes = new Uint8Array([
      0x52, 0x49, 0x46, 0x46, 0x11, 0, 0, 0, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x4c, 0x05,
      0, 0, 0, 0x2f, 0x8f, 0x01, 0x4b, 0x00,
    ]);
    expect(readImageHeader(bytes)).toEqual({
      format: 'webp',
      width: 400,
      height: 301,
      bitDepth: 8,
    });
    expect(readImageHeader(webpLosslessBytes(16384, 1))).toEqual({
      format: 'webp',
      width: 16384,
      height: 1,
      bitDepth: 8,
    });
  });

  it('reads the VP8X canvas size with 24-bit sides', () => {
    expect(readImageHeader(webpExtendedBytes(5000, 70_000))).toEqual({
      format: 'webp',
      width: 5000,
      height: 70_000,
      bitDepth: 8,
    });
  });

  it('refuses an inter frame, a bad VP8L signature and an unknown first chunk', () => {
    const inter = webpLossyBytes(10, 10);
    inter[20] = 0x51;
    expect(readImageHeader(inter)).toBeUndefined();
    const badSignature = webpLosslessBytes(10, 10);
    badSignature[20] = 0x2e;
    expect(readImageHeader(badSignature)).toBeUndefined();
    const unknown = webpExtendedBytes(10, 10);
    unknown[15] = 0x59;
    expect(readImageHeader(unknown)).toBeUndefined();
  });

  it('is undefined when cut inside the frame header', () => {
    expect(readImageHeader(webpLossyBytes(10, 10).subarray(0, 28))).toBeUndefined();
    expect(readImageHeader(webpExtendedBytes(10, 10).subarray(0, 12))).toBeUndefined();
  });
});

describe('readImageHeader: GIF', () => {
  it('reads the logical screen and the color resolution', () => {
    // "GIF89a", width 0x0140 (320), height 0x00F0 (240), packed 0xD5: color resolution bits 101 -> 6 bits.
    const bytes = new Uint8Array([
      0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x40, 0x01, 0xf0, 0x00, 0xd5, 0, 0,
    ]);
    expect(readImageHeader(bytes)).toEqual({ format: 'gif', width: 320, height: 240, bitDepth: 6 });
  });

  it('reads GIF87a too', () => {
    const bytes = gifBytes(2, 3, 0x70);
    bytes[4] = 0x37;
    expect(readImageHeader(bytes)).toEqual({ format: 'gif', width: 2, height: 3, bitDepth: 8 });
  });

  it('is undefined for a cut header or a zero side', () => {
    expect(readImageHeader(gifBytes(2, 3).subarray(0, 10))).toBeUndefined();
    expect(readImageHeader(gifBytes(0, 3))).toBeUndefined();
  });
});

describe('readImageHeader: anything else', () => {
  it.each([
    ['empty', new Uint8Array(0)],
    ['HTML', new TextEncoder().encode('<!doctype html><html></html>')],
    ['BMP', new Uint8Array([0x42, 0x4d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])],
    [
      'RIFF that is not WebP',
      new Uint8Array([
        0x52, 0x49, 0x46, 0x46, 4, 0, 0, 0, 0x57, 0x41, 0x56, 0x45, 0, 0, 0, 0, 0, 0, 0, 0,
      ]),
    ],
    ['PNG-like garbage', new Uint8Array([0x89, 0x50, 0x4e, 0x00, 0, 0, 0, 0])],
    ['FF not followed by SOI', new Uint8Array([0xff, 0xd9, 0xff, 0xc0])],
  ])('is undefined for %s', (_name, bytes) => {
    expect(readImageHeader(bytes)).toBeUndefined();
  });
});
