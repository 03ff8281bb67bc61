import { close, open } from 'node:fs';
import type { Server } from 'node:net';
import { devNull } from 'node:os';
import type { MetricsSink } from '@infergate/core';

/** The two log levels used (pino's signature). */
export interface ConnectionLogger {
  warn(facts: object, message: string): void;
  info(facts: object, message: string): void;
}

export interface ConnectionLimitOptions {
  /** Client connections open at once (`limits.max_connections`); 0: no cap. */
  maxConnections: number;
  /** JSON lines on stderr when absent. */
  logger?: ConnectionLogger;
  metrics?: Pick<
    MetricsSink,
    'connectionOpened' | 'connectionClosed' | 'connectionRefused' | 'descriptorsExhausted'
  >;
  /** How often the end of a refusing episode and the file descriptors are checked; 1 s by default. */
  checkEveryMs?: number;
}

const stderrLogger: ConnectionLogger = {
  warn: (facts, message) =>
    process.stderr.write(`${JSON.stringify({ level: 'warn', msg: message, ...facts })}\n`),
  info: (facts, message) =>
    process.stderr.write(`${JSON.stringify({ level: 'info', msg: message, ...facts })}\n`),
};

function isDescriptorError(error: unknown): error is Error & { code: 'EMFILE' | 'ENFILE' } {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'EMFILE' || code === 'ENFILE';
}

/**
 * Bounds a Node server's client connections and makes running out visible: above `maxConnections` Node
 * closes each new connection at once, and each is counted, an episode logged once. Running out of file
 * descriptors is checked apart, because libuv hides it (on EMFILE it accepts and closes pending
 * connections itself): every `checkEveryMs` a descriptor is opened and closed, and EMFILE or ENFILE is
 * counted and logged once per episode.
 */
export function limitConnections(server: Server, options: ConnectionLimitOptions): void {
  const logger = options.logger ?? stderrLogger;
  const { metrics, maxConnections } = options;
  if (maxConnections > 0) server.maxConnections = maxConnections;
  let openConnections = 0;
  let refusing = false;
  let exhausted: string | undefined;

  server.on('connection', (socket) => {
    openConnections += 1;
    metrics?.connectionOpened?.();
    socket.once('close', () => {
      openConnections -= 1;
      metrics?.connectionClosed?.();
    });
  });
  server.on('drop', () => {
    metrics?.connectionRefused?.();
    if (refusing) return;
    refusing = true;
    logger.warn(
      { maxConnections },
      'connections: limits.max_connections reached, new connections are refused',
    );
  });

  const startExhaustion = (code: string): void => {
    if (exhausted !== undefined) return;
    exhausted = code;
    metrics?.descriptorsExhausted?.(code);
    logger.warn(
      { code, openConnections },
      `connections: out of file descriptors (${code}), new connections fail until some close`,
    );
  };
  server.on('error', (error) => {
    if (isDescriptorError(error)) startExhaustion(error.code);
    // Anything else stays what it was without this listener: an uncaught error.
    else if (server.listenerCount('error') === 1) throw error;
  });

  const check = (): void => {
    if (refusing && openConnections < maxConnections) {
      refusing = false;
      logger.info(
        { maxConnections, openConnections },
        'connections: below limits.max_connections again',
      );
    }
    open(devNull, 'r', (error, descriptor) => {
      if (error === null) {
        close(descriptor, () => undefined);
        if (exhausted === undefined) return;
        logger.info(
          { code: exhausted, openConnections },
          'connections: file descriptors available again',
        );
        exhausted = undefined;
      } else if (isDescriptorError(error)) startExhaustion(error.code);
    });
  };
  let timer: NodeJS.Timeout | undefined;
  const start = (): void => {
    timer ??= setInterval(check, options.checkEveryMs ?? 1_000);
    timer.unref();
  };
  if (server.listening) start();
  server.on('listening', start);
  server.on('close', () => {
    clearInterval(timer);
    timer = undefined;
  });
}
