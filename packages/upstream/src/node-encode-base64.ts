import { Buffer } from 'node:buffer';

/** Base64 with Buffer's native encoder: several times faster than core's portable one on Node. */
export function nodeEncodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
