import { randomBytes, randomInt } from 'node:crypto';
import type { IdSource } from '@infergate/core';

/** Core's IdSource on node:crypto: ids are unguessable, so they can double as request ids. */
export function createIdSource(): IdSource {
  return {
    hex(length: number): string {
      return randomBytes(Math.ceil(length / 2)).toString('hex').slice(0, length);
    },
    digits(length: number): string {
      let digits = String(randomInt(1, 10));
      while (digits.length < length) digits += String(randomInt(0, 10));
      return digits.slice(0, length);
    },
  };
}
