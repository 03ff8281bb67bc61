import { randomBytes } from 'node:crypto';

/** A key for the zero-config start (generated at start and shown once, printGeneratedKey): 128 random bits. */
export function generateApiKey(): string {
  return `ig-${randomBytes(16).toString('hex')}`;
}
