import type { LogLevelName, RequestLogLine } from './request-log-line.js';

// pino's numbers, so that every app's lines read alike in one log pipeline.
const levelValues: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

export interface JsonLogOptions {
  /** `LOG_LEVEL`: trace, debug, info (the default), warn, error, fatal or silent; a value not among them is info. */
  level?: string | undefined;
  /** Where a line goes, newline included (stdout on Node, the console on Workers). */
  write(text: string, level: LogLevelName): void;
  /** Epoch milliseconds; `Date.now` by default. */
  now?: () => number;
}

/**
 * Writes request lines as JSON text in the shape of the node-server's pino lines
 * (`{"level":30,"time":...,"service":"infergate",...,"msg":"request"}`), for an app without pino: the
 * edge app on Node and on Workers. Lines under `level` are dropped before they are built.
 */
export function createJsonLog(options: JsonLogOptions): (line: RequestLogLine) => void {
  const threshold = levelValues[options.level?.trim().toLowerCase() ?? 'info'] ?? levelValues.info;
  const now = options.now ?? Date.now;
  return (line) => {
    const value = levelValues[line.level] as number;
    if (value < (threshold as number)) return;
    options.write(
      `${JSON.stringify({ level: value, time: now(), service: 'infergate', ...line.fields, msg: 'request' })}\n`,
      line.level,
    );
  };
}
