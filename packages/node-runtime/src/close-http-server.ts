import type { Server } from 'node:http';
import { shutdownDeadlines } from './shutdown-deadlines.js';

/**
 * A graceful close of a node:http server: stops accepting, lets running responses finish for up to
 * `graceMs`, calls `endRunning` shortly before the deadline (streams end with their terminal error),
 * then closes every connection. Keep-alive connections close as they fall idle, so that they do not
 * hold the close open.
 */
export function closeHttpServer(
  server: Server,
  graceMs: number,
  endRunning: () => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const cancelDeadlines = shutdownDeadlines(graceMs, {
      endRunning,
      cutAll: () => server.closeAllConnections(),
    });
    server.close((error) => {
      clearInterval(idle);
      cancelDeadlines();
      if (error) reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}
