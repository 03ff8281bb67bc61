import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VllmError } from '../http/vllm-error.js';
import {
  createThreadedLocalBackend,
  type ThreadedLocalBackendOptions,
} from './create-threaded-local-backend.js';
import { BodyTooLargeError, toWebRequest } from './to-web-request.js';
import { writeWebResponse } from './write-web-response.js';

export interface LocalBackendServer {
  /** `http://host:port`, without a trailing slash. */
  url: string;
  port: number;
  /** Stops accepting, ends idle keep-alive connections and, after a short grace, cuts the rest. */
  close(): Promise<void>;
}

const closeGraceMs = 1000;

/**
 * Serves the local backend over node:http (127.0.0.1 by default; port 0 picks a free port), its work in
 * worker threads so that a large request does not hold up the others.
 */
export async function startLocalBackendServer(
  options: ThreadedLocalBackendOptions & { host?: string; port?: number } = {},
): Promise<LocalBackendServer> {
  const { host: hostOption, port: portOption, ...backendOptions } = options;
  const backend = createThreadedLocalBackend(backendOptions);
  const handler = backend.handle;
  const host = hostOption ?? '127.0.0.1';
  const server = createServer((incoming, outgoing) => {
    const clientGone = new AbortController();
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) clientGone.abort();
    });
    const origin = `http://${incoming.headers.host ?? `${host}:${port()}`}`;
    toWebRequest(incoming, origin, clientGone.signal)
      .then(handler, (error: unknown) => {
        if (error instanceof BodyTooLargeError)
          return new VllmError(413, 'RequestEntityTooLarge', error.message).toResponse();
        throw error;
      })
      .then((response) => writeWebResponse(response, outgoing))
      .catch(() => {
        // The client vanished mid-body or mid-response: nothing is left to answer.
        outgoing.destroy();
      });
  });
  const port = (): number => (server.address() as AddressInfo).port;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(portOption ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port()}`,
    port: port(),
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        const force = setTimeout(() => server.closeAllConnections(), closeGraceMs);
        server.close((error) => {
          clearTimeout(force);
          if (error === undefined) resolve();
          else reject(error);
        });
        server.closeIdleConnections();
      });
      await backend.close();
    },
  };
}
