/** What the gateway learns about an image from its header alone, without decoding pixels. */
export interface ImageHeader {
  format: 'png' | 'jpeg' | 'webp' | 'gif';
  width: number;
  height: number;
  bitDepth: number;
}

/**
 * The outcome of reading a header from a prefix of the file: the header, `truncated` when the prefix
 * ends before the header does (`needed` is the prefix length, in bytes, that the next step needs), or
 * `invalid` when no amount of further bytes could make it a readable image.
 */
export type ImageHeaderProbe =
  | { kind: 'header'; header: ImageHeader }
  | { kind: 'truncated'; needed: number }
  | { kind: 'invalid' };

const invalid: ImageHeaderProbe = { kind: 'invalid' };
const truncated = (needed: number): ImageHeaderProbe => ({ kind: 'truncated', needed });

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const gif87 = [0x47, 0x49, 0x46, 0x38, 0x37, 0x61];
const gif89 = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61];
const riff = [0x52, 0x49, 0x46, 0x46];
const webp = [0x57, 0x45, 0x42, 0x50];

/** Whether `bytes` holds `signature` at `offset`, comparing only the bytes present. */
function matchesPresent(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  for (let index = 0; index < signature.length && offset + index < bytes.length; index += 1) {
    if (bytes[offset + index] !== signature[index]) return false;
  }
  return true;
}

function u16be(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset] ?? 0) << 8) | (bytes[offset + 1] ?? 0);
}

function u16le(bytes: Uint8Array, offset: number): number {
  return (bytes[offset] ?? 0) | ((bytes[offset + 1] ?? 0) << 8);
}

function u24le(bytes: Uint8Array, offset: number): number {
  return (bytes[offset] ?? 0) | ((bytes[offset + 1] ?? 0) << 8) | ((bytes[offset + 2] ?? 0) << 16);
}

function u32be(bytes: Uint8Array, offset: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset + offset, 4).getUint32(0, false);
}

function header(
  format: ImageHeader['format'],
  width: number,
  height: number,
  bitDepth: number,
): ImageHeaderProbe {
  // A zero side has no pixels to send; PNG, JPEG (outside DNL) and GIF all forbid it.
  if (width <= 0 || height <= 0) return invalid;
  return { kind: 'header', header: { format, width, height, bitDepth } };
}

// PNG (ISO/IEC 15948 §11.2.2): the signature, then IHDR first: length 13, "IHDR", width and height as
// 4-byte big-endian integers (1 .. 2^31-1), bit depth (1, 2, 4, 8 or 16).
function probePng(bytes: Uint8Array): ImageHeaderProbe {
  if (bytes.length < 25) return truncated(25);
  if (u32be(bytes, 8) !== 13 || !matchesPresent(bytes, [0x49, 0x48, 0x44, 0x52], 12))
    return invalid;
  const width = u32be(bytes, 16);
  const height = u32be(bytes, 20);
  const bitDepth = bytes[24] ?? 0;
  if (width > 0x7fffffff || height > 0x7fffffff || ![1, 2, 4, 8, 16].includes(bitDepth))
    return invalid;
  return header('png', width, height, bitDepth);
}

// SOF0-3, 5-7, 9-11, 13-15 (ITU T.81 Table B.1); C4 (DHT), C8 (JPG) and CC (DAC) share the range.
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

// JPEG (ITU T.81 §B.1.1): SOI, then marker segments FF xx + 2-byte length (which counts itself). APPn
// segments (EXIF, ICC, XMP) may come first and be long, so the walk skips them by length.
function probeJpeg(bytes: Uint8Array): ImageHeaderProbe {
  let offset = 2;
  for (;;) {
    if (offset + 2 > bytes.length) return truncated(offset + 2);
    if (bytes[offset] !== 0xff) return invalid;
    const marker = bytes[offset + 1] ?? 0;
    // Any marker may be preceded by fill bytes 0xFF (§B.1.1.2).
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    offset += 2;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    // A stuffed zero, a second SOI, EOI or the scan itself before any frame header: no frame to read.
    if (marker === 0x00 || marker === 0xd8 || marker === 0xd9 || marker === 0xda) return invalid;
    if (offset + 2 > bytes.length) return truncated(offset + 2);
    const length = u16be(bytes, offset);
    if (length < 2) return invalid;
    if (isStartOfFrame(marker)) {
      // Lf, P, Y, X, Nf: precision 8 or 12 (DCT), 2..16 (lossless). Y = 0 defers the height to a DNL
      // segment after the first scan, which only a decoder can reach.
      if (length < 8) return invalid;
      if (offset + 7 > bytes.length) return truncated(offset + 7);
      const precision = bytes[offset + 2] ?? 0;
      if (precision < 2 || precision > 16) return invalid;
      return header('jpeg', u16be(bytes, offset + 5), u16be(bytes, offset + 3), precision);
    }
    offset += length;
  }
}

// WebP (RFC 9649): "RIFF" size "WEBP", then the first chunk decides the layout.
function probeWebp(bytes: Uint8Array): ImageHeaderProbe {
  if (bytes.length < 20) return truncated(20);
  if (!matchesPresent(bytes, webp, 8)) return invalid;
  const fourcc = String.fromCharCode(
    bytes[12] ?? 0,
    bytes[13] ?? 0,
    bytes[14] ?? 0,
    bytes[15] ?? 0,
  );
  if (fourcc === 'VP8 ') {
    // VP8 key frame (RFC 6386 §9.1): 3-byte frame tag (bit 0 clear on a key frame), start code
    // 9D 01 2A, then 14-bit width and height, little-endian, with a 2-bit scale above each.
    if (bytes.length < 30) return truncated(30);
    if (((bytes[20] ?? 1) & 1) !== 0 || !matchesPresent(bytes, [0x9d, 0x01, 0x2a], 23))
      return invalid;
    return header('webp', u16le(bytes, 26) & 0x3fff, u16le(bytes, 28) & 0x3fff, 8);
  }
  if (fourcc === 'VP8L') {
    // Lossless (RFC 9649 §3.7.1): signature 0x2F, then 14 bits width-1, 14 bits height-1, 1 bit
    // alpha, 3 bits version (0).
    if (bytes.length < 25) return truncated(25);
    if (bytes[20] !== 0x2f) return invalid;
    const bits = new DataView(bytes.buffer, bytes.byteOffset + 21, 4).getUint32(0, true);
    if (bits >>> 29 !== 0) return invalid;
    return header('webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1, 8);
  }
  if (fourcc === 'VP8X') {
    // Extended (RFC 9649 §3.7.3): flags, 3 reserved bytes, canvas width-1 and height-1 as 24-bit LE.
    if (bytes.length < 30) return truncated(30);
    return header('webp', u24le(bytes, 24) + 1, u24le(bytes, 27) + 1, 8);
  }
  return invalid;
}

// GIF89a §18: logical screen width and height (LE), then a packed byte whose bits 4-6 hold the color
// resolution minus one (bits per primary color).
function probeGif(bytes: Uint8Array): ImageHeaderProbe {
  if (bytes.length < 11) return truncated(11);
  const packed = bytes[10] ?? 0;
  return header('gif', u16le(bytes, 6), u16le(bytes, 8), ((packed >> 4) & 0x07) + 1);
}

/** Reads the header of a PNG, JPEG, WebP or GIF from a prefix of the file, saying how much more it needs. */
export function probeImageHeader(bytes: Uint8Array): ImageHeaderProbe {
  if (bytes.length === 0) return truncated(1);
  if (bytes[0] === 0x89)
    return matchesPresent(bytes, pngSignature)
      ? bytes.length < 8
        ? truncated(8)
        : probePng(bytes)
      : invalid;
  if (bytes[0] === 0xff)
    return bytes.length < 2 ? truncated(2) : bytes[1] === 0xd8 ? probeJpeg(bytes) : invalid;
  if (bytes[0] === 0x52)
    return matchesPresent(bytes, riff)
      ? bytes.length < 12
        ? truncated(12)
        : probeWebp(bytes)
      : invalid;
  if (bytes[0] === 0x47) {
    if (!matchesPresent(bytes, gif87) && !matchesPresent(bytes, gif89)) return invalid;
    return bytes.length < 6 ? truncated(6) : probeGif(bytes);
  }
  return invalid;
}

/** The header of a PNG, JPEG, WebP or GIF image; undefined when unreadable or truncated. Never decodes pixels. */
export function readImageHeader(bytes: Uint8Array): ImageHeader | undefined {
  const probe = probeImageHeader(bytes);
  return probe.kind === 'header' ? probe.header : undefined;
}
