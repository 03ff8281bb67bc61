import { destination, pino, type Logger } from 'pino';

/**
 * The process logger: JSON lines on stdout. Nothing logs headers or bodies, and the redaction below
 * is the second line of defence should a request object ever be logged.
 *
 * Lines are written asynchronously: a line goes out at once when no write is under way, and the lines
 * logged while one is under way go out together in the next. pino's default wrote each request's line
 * with its own blocking write(2), 15-30 us of a chat request's ~120 us of CPU under load. pino flushes
 * what is left when the process exits.
 */
export function createLogger(level = 'info'): Logger {
  return pino(
    {
      level,
      base: { service: 'infergate' },
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', '*.headers.authorization', 'authorization', 'apiKey', '*.apiKey'],
        censor: '[redacted]',
      },
    },
    destination({ dest: 1, sync: false }),
  );
}
