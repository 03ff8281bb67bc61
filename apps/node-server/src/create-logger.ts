import { createLineWriter } from '@infergate/node-runtime';
import { pino, type Logger } from 'pino';

const redactPaths = [
  'req.headers.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'authorization',
  // The Messages API's routes take the key in x-api-key too.
  'req.headers["x-api-key"]',
  'headers["x-api-key"]',
  '*.headers["x-api-key"]',
  'apiKey',
  '*.apiKey',
];

/**
 * The process logger: JSON lines on stdout. Nothing logs headers or bodies, and the redaction below
 * is the second line of defence should a request object ever be logged. Written asynchronously, in
 * batches of up to 20 ms, the rest at exit (see createLineWriter): pino's default blocking write(2)
 * per line was a large share of a chat request's CPU under load.
 */
export function createLogger(level = 'info'): Logger {
  const redact = { paths: redactPaths, censor: '[redacted]' };
  return pino({ level, base: { service: 'infergate' }, redact }, createLineWriter(1));
}
