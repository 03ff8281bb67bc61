/**
 * Test images built byte by byte from the format specifications: just the headers the gateway reads,
 * no pixel data. Used by unit tests only (nothing in index.ts exports it).
 */

function be16(value: number): number[] {
  return [(value >>> 8) & 0xff, value & 0xff];
}

function be32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}

function le16(value: number): number[] {
  return [value & 0xff, (value >>> 8) & 0xff];
}

function le24(value: number): number[] {
  return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff];
}

function le32(value: number): number[] {
  return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
}

/** PNG signature and IHDR (ISO/IEC 15948 §11.2.2), colour type 2, CRC bytes zero (not checked). */
export function pngBytes(width: number, height: number, bitDepth = 8): Uint8Array {
  return new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...be32(13),
    0x49,
    0x48,
    0x44,
    0x52,
    ...be32(width),
    ...be32(height),
    bitDepth,
    2,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  ]);
}

export interface JpegOptions {
  /** SOFn marker byte; 0xC0 baseline by default. */
  sofMarker?: number;
  precision?: number;
  /** Bytes of an APP1 (EXIF-like) payload placed before the frame header, split over 65,533-byte segments. */
  appBytes?: number;
}

/** SOI, optional APP1 segments, a DQT, then SOFn with three components (ITU T.81 §B.2.2). */
export function jpegBytes(width: number, height: number, options: JpegOptions = {}): Uint8Array {
  const out: number[] = [0xff, 0xd8];
  let remaining = options.appBytes ?? 0;
  while (remaining > 0) {
    const size = Math.min(remaining, 65_533);
    out.push(0xff, 0xe1, ...be16(size + 2));
    for (let index = 0; index < size; index += 1) out.push(index & 0xff);
    remaining -= size;
  }
  out.push(0xff, 0xdb, ...be16(67), 0, ...new Array<number>(64).fill(1));
  out.push(
    0xff,
    options.sofMarker ?? 0xc0,
    ...be16(17),
    options.precision ?? 8,
    ...be16(height),
    ...be16(width),
    3,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  );
  out.push(0xff, 0xda, ...be16(12), 3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0);
  return new Uint8Array(out);
}

function riffWebp(chunk: string, payload: number[]): Uint8Array {
  const fourcc = [...chunk].map((character) => character.charCodeAt(0));
  const body = [0x57, 0x45, 0x42, 0x50, ...fourcc, ...le32(payload.length), ...payload];
  return new Uint8Array([0x52, 0x49, 0x46, 0x46, ...le32(body.length), ...body]);
}

/** Lossy WebP: VP8 key-frame tag, start code 9D 01 2A, 14-bit sides (RFC 6386 §9.1). */
export function webpLossyBytes(width: number, height: number): Uint8Array {
  return riffWebp('VP8 ', [
    0x50,
    0x01,
    0x00,
    0x9d,
    0x01,
    0x2a,
    ...le16(width),
    ...le16(height),
    0,
    0,
  ]);
}

/** Lossless WebP: signature 0x2F and width-1, height-1 in 14 bits each (RFC 9649 §3.7.1). */
export function webpLosslessBytes(width: number, height: number): Uint8Array {
  const bits = ((width - 1) | ((height - 1) << 14)) >>> 0;
  return riffWebp('VP8L', [0x2f, ...le32(bits), 0, 0, 0]);
}

/** Extended WebP: VP8X with canvas width-1 and height-1 as 24-bit little-endian (RFC 9649 §3.7.3). */
export function webpExtendedBytes(width: number, height: number): Uint8Array {
  return riffWebp('VP8X', [0x10, 0, 0, 0, ...le24(width - 1), ...le24(height - 1)]);
}

/** GIF89a header and logical screen descriptor (GIF89a §17-18). */
export function gifBytes(width: number, height: number, packed = 0xf7): Uint8Array {
  return new Uint8Array([
    0x47,
    0x49,
    0x46,
    0x38,
    0x39,
    0x61,
    ...le16(width),
    ...le16(height),
    packed,
    0,
    0,
    0x3b,
  ]);
}

/** `data:<mime>;base64,<payload>` of the bytes. */
export function toDataUrl(mimeType: string, bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `data:${mimeType};base64,${btoa(binary)}`;
}

/** Fault matrix row 8: values a client could use to make the gateway fetch something; all must be 400. */
export const ssrfImageValues: readonly string[] = [
  'http://127.0.0.1:9/canary.png',
  'https://example.com/image.png',
  'file:///etc/passwd',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]:9/canary.png',
  'http://2130706433/',
  `data:text/html;base64,${btoa('<script>alert(1)</script>')}`,
];
