import type { SplitDataUrl } from './split-data-url.js';

/** A `data:` URL whose payload is base64: the payload stays encoded until a prefix is asked for. */
export interface Base64DataUrl {
  base64: true;
  /** Media type without parameters, lower-cased; empty when the URL names none. */
  mimeType: string;
  /** Bytes the whole payload decodes to (computed from its length, nothing decoded). */
  byteLength: number;
  /**
   * Decodes the first `count` bytes of the payload (all of it when shorter); undefined when that part
   * is not valid base64. Cost is proportional to `count`, not to the payload.
   */
  decodePrefix(count: number): Uint8Array | undefined;
}

/** A `data:` URL with a percent-encoded (not base64) payload; the gateway only needs its media type. */
export interface TextDataUrl {
  base64: false;
  mimeType: string;
}

export type DataUrl = Base64DataUrl | TextDataUrl;

const base64Chunk = /^[A-Za-z0-9+/]*={0,2}$/;

function decodedLength(payload: string): number {
  let end = payload.length;
  // At most two '=' pad a base64 payload (RFC 4648 §4).
  for (let pads = 0; pads < 2 && end > 0 && payload.charCodeAt(end - 1) === 0x3d; pads += 1)
    end -= 1;
  const remainder = end % 4;
  return Math.floor(end / 4) * 3 + (remainder === 2 ? 1 : remainder === 3 ? 2 : 0);
}

function decodeBase64(text: string): Uint8Array | undefined {
  // Only the prefix is checked here; atob would silently skip whitespace and shift every offset after it.
  if (!base64Chunk.test(text)) return undefined;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * Splits `data:[<mediatype>][;base64],<data>` (RFC 2397) without touching the payload. Undefined when
 * the value is not a data URL at all (any other scheme, or no comma).
 */
export function parseDataUrl(value: string): DataUrl | undefined {
  if (value.length < 5 || value.slice(0, 5).toLowerCase() !== 'data:') return undefined;
  const comma = value.indexOf(',', 5);
  if (comma < 0) return undefined;
  const parts = value
    .slice(5, comma)
    .split(';')
    .map((part) => part.trim());
  const mimeType = (parts[0] ?? '').toLowerCase();
  // ";base64" must be the last token before the comma; anywhere else it is an ordinary parameter.
  const base64 = parts.length > 1 && parts[parts.length - 1]?.toLowerCase() === 'base64';
  if (!base64) return { base64: false, mimeType };
  return base64DataUrl(mimeType, value.slice(comma + 1));
}

/** A form file's data URL, read without joining its head and payload. */
export function parseSplitDataUrl(value: SplitDataUrl): Base64DataUrl {
  return base64DataUrl(value.mediaType.toLowerCase(), value.payload);
}

function base64DataUrl(mimeType: string, payload: string): Base64DataUrl {
  return {
    base64: true,
    mimeType,
    byteLength: decodedLength(payload),
    decodePrefix(count: number): Uint8Array | undefined {
      // Every 4 characters carry 3 bytes, so a prefix aligned to 4 characters decodes on its own.
      const characters = Math.ceil(Math.max(0, count) / 3) * 4;
      const slice = characters >= payload.length ? payload : payload.slice(0, characters);
      const bytes = decodeBase64(slice);
      return bytes !== undefined && bytes.length > count ? bytes.subarray(0, count) : bytes;
    },
  };
}
