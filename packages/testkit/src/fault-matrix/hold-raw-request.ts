import { connect } from 'node:net';

export interface HeldRawRequest {
  /** The first answer's status line and everything after it, once the status line has arrived (0: none before the close). */
  answered: Promise<{ status: number; text: () => string; at: number }>;
  /**
   * When the server closed the connection (performance.now()): its FIN, or a reset. The socket holds
   * its own side open, so a FIN is all it sees of a server that has closed its end.
   */
  closed: Promise<number>;
  /** Writes more of the request; resolves once the socket took it. */
  send(data: string | Buffer): Promise<void>;
  /** When the last write was taken (performance.now()). */
  lastSentAt(): number;
  /** Drops the connection from the client side. */
  destroy(): void;
}

/**
 * A raw HTTP/1.1 request the test writes piece by piece and holds open, as an attacker or a stalled
 * client does: the socket keeps its side open after the server's FIN (allowHalfOpen), so only the
 * server decides when the connection closes.
 */
export function holdRawRequest(url: string, head: string): HeldRawRequest {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
  let text = '';
  let lastSentAt = 0;
  let answer: (value: { status: number; text: () => string; at: number }) => void = () => undefined;
  const answered = new Promise<{ status: number; text: () => string; at: number }>((resolve) => {
    answer = resolve;
  });
  const closed = new Promise<number>((resolve) => {
    const end = (): void => {
      answer({ status: 0, text: () => text, at: performance.now() });
      resolve(performance.now());
    };
    socket.on('end', end);
    socket.on('close', end);
  });
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('latin1');
    const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
    if (status !== undefined)
      answer({ status: Number(status), text: () => text, at: performance.now() });
  });
  socket.on('error', () => undefined);
  const send = (data: string | Buffer): Promise<void> =>
    new Promise((resolve) => {
      if (socket.destroyed) return resolve();
      socket.write(data, () => {
        lastSentAt = performance.now();
        resolve();
      });
    });
  void send(head);
  return { answered, closed, send, lastSentAt: () => lastSentAt, destroy: () => socket.destroy() };
}
