import { createHash } from 'node:crypto';

/** SHA-256 with node:crypto: synchronous and cheap for a key, where WebCrypto's digest is a job and a promise. */
export function nodeSha256(text: string): Uint8Array {
  return createHash('sha256').update(text, 'utf8').digest();
}
