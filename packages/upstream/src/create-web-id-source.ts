import type { IdSource } from '@infergate/core';

// Bytes are drawn in batches: one getRandomValues call per id rather than per character.
function randomBytes(count: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(count));
}

/**
 * Uniform random digits from `alphabetSize` choices offset by `first`, by rejection sampling: bytes at
 * or above the largest multiple of the alphabet size are drawn again, so no digit is favoured.
 */
function uniformDigits(count: number, alphabetSize: number, first: number): string {
  const ceiling = 256 - (256 % alphabetSize);
  let digits = '';
  while (digits.length < count) {
    for (const byte of randomBytes(count - digits.length + 8)) {
      if (byte >= ceiling) continue;
      digits += String(first + (byte % alphabetSize));
      if (digits.length === count) break;
    }
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
      for (const byte of randomBytes(Math.ceil(length / 2))) hex += byte.toString(16).padStart(2, '0');
      return hex.slice(0, length);
    },
    digits(length: number): string {
      if (length <= 0) return '';
      // The first digit is never 0 (core's IdSource contract).
      return uniformDigits(1, 9, 1) + uniformDigits(length - 1, 10, 0);
    },
  };
}
