import type { IdSource } from '@infergate/core';

// A crypto.getRandomValues call is costly (the WebCrypto binding, not the entropy), and one per id
// showed in a chat request's CPU profile. Ids are cut from a pooled buffer instead, refilled by one
// call per 4 KiB: still cryptographically random bytes, each used once.
const poolSize = 4096;
const pool = new Uint8Array(poolSize);
let poolOffset = poolSize;

function nextByte(): number {
  if (poolOffset === poolSize) {
    crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  const byte = pool[poolOffset] as number;
  // Zeroed once read, so a used byte can never be read again, even by mistake.
  pool[poolOffset] = 0;
  poolOffset += 1;
  return byte;
}

const hexDigits = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * Uniform random digits from `alphabetSize` choices offset by `first`, by rejection sampling: bytes at
 * or above the largest multiple of the alphabet size are drawn again, so no digit is favoured.
 */
function uniformDigits(count: number, alphabetSize: number, first: number): string {
  const ceiling = 256 - (256 % alphabetSize);
  let digits = '';
  let left = count;
  while (left > 0) {
    const byte = nextByte();
    if (byte >= ceiling) continue;
    digits += String.fromCharCode(48 + first + (byte % alphabetSize));
    left -= 1;
  }
  return digits;
}

/**
 * Core's IdSource on Web Crypto (`crypto.getRandomValues`), which every runtime has: Node, workerd,
 * Deno, Bun. Ids are unguessable, so they can double as request ids.
 */
export function createWebIdSource(): IdSource {
  return {
    hex(length: number): string {
      let hex = '';
      for (let pair = Math.ceil(length / 2); pair > 0; pair -= 1)
        hex += hexDigits[nextByte()] as string;
      return hex.length === length ? hex : hex.slice(0, length);
    },
    digits(length: number): string {
      if (length <= 0) return '';
      // The first digit is never 0 (core's IdSource contract).
      return uniformDigits(1, 9, 1) + uniformDigits(length - 1, 10, 0);
    },
  };
}
