import { pino, type Logger } from 'pino';

/**
 * The process logger: JSON lines on stdout. Nothing logs headers or bodies, and the redaction below
 * is the second line of defence should a request object ever be logged.
 */
export function createLogger(level = 'info'): Logger {
  return pino({
    level,
    base: { service: 'infergate' },
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', '*.headers.authorization', 'authorization', 'apiKey', '*.apiKey'],
      censor: '[redacted]',
    },
  });
}
