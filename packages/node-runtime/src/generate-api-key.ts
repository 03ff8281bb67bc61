import { randomBytes } from 'node:crypto';

/** A key for the zero-config start (DESIGN.md: generated at start and printed once): 128 random bits. */
export function generateApiKey(): string {
  return `ig-${randomBytes(16).toString('hex')}`;
}
