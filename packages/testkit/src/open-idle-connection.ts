import { connect, type Socket } from 'node:net';

/** A raw keep-alive client connection that sends nothing until asked. */
export interface IdleConnection {
  socket: Socket;
  /** Resolves once the server (or the client) closed the connection. */
  closed: Promise<void>;
  /** True once `closed` has resolved. */
  isClosed(): boolean;
  /** Sends `GET path` on this connection (kept alive) and resolves with the status and body text. */
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: string }>;
}

/**
 * Opens a TCP connection to an HTTP server and keeps it idle: what a keep-alive client between two
 * requests, or a client that holds connections on purpose, looks like to the server. Resolves once
 * the connection is established on the client side (the server may still close it at once).
 */
export function openIdleConnection(url: string): Promise<IdleConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  let closedFlag = false;
  const closed = new Promise<void>((resolve) => {
    socket.once('close', () => {
      closedFlag = true;
      resolve();
    });
  });
  // A server closing at once may reset: the close is what the test looks at.
  socket.on('error', () => undefined);
  const get = (
    path: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      let received = Buffer.alloc(0);
      const onData = (chunk: Buffer): void => {
        received = Buffer.concat([received, chunk]);
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = received.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (received.length < end + 4 + length) return;
        socket.off('data', onData);
        socket.off('close', onClose);
        resolve({
          status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
          body: received.subarray(end + 4, end + 4 + length).toString('utf8'),
        });
      };
      const onClose = (): void =>
        reject(new Error(`the connection closed before an answer to GET ${path}`));
      socket.on('data', onData);
      socket.once('close', onClose);
      const lines = Object.entries({ host: `${hostname}:${port}`, ...headers }).map(
        ([name, value]) => `${name}: ${value}\r\n`,
      );
      socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
    });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve({ socket, closed, isClosed: () => closedFlag, get }));
    socket.once('error', reject);
  });
}
