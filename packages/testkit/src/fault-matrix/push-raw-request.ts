import { connect } from 'node:net';
import type { JsonReply } from '../contract/contract-client.js';

export interface RawPushResult {
  /** Everything the server wrote before it closed (or until `giveUpMs`). */
  text: string;
  status: number;
  /** From the end of the request head to the first byte of the answer. */
  answeredAfterMs: number;
  /** Body bytes the kernel accepted from us before the server closed: an upper bound of what it read. */
  bodyBytesAccepted: number;
  /** The server closed the connection. */
  closed: boolean;
}

/**
 * Writes a raw HTTP/1.1 request head, then keeps pushing `body` pieces (up to `pushBytes`) as fast
 * as the socket takes them, until the server answers and closes: the client of fault-matrix rows 3,
 * 4 and 5 that no HTTP client library will play (it ignores an early answer and keeps sending).
 */
export function pushRawRequest(
  url: string,
  head: string,
  options: { pushBytes?: number; piece?: Buffer; giveUpMs?: number } = {},
): Promise<RawPushResult> {
  const { hostname, port } = new URL(url);
  const piece = options.piece ?? Buffer.alloc(64 * 1024, 0x61);
  const pushBytes = options.pushBytes ?? 0;
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let text = '';
    let headSentAt = 0;
    let answeredAt = 0;
    let pushed = 0;
    let headBytes = 0;
    const finish = (closed: boolean): void => {
      clearTimeout(timer);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({
        text,
        status,
        answeredAfterMs: answeredAt === 0 ? Number.NaN : answeredAt - headSentAt,
        bodyBytesAccepted: Math.max(0, socket.bytesWritten - headBytes),
        closed,
      });
      socket.destroy();
    };
    const timer = setTimeout(() => finish(false), options.giveUpMs ?? 15_000);
    socket.on('data', (chunk: Buffer) => {
      if (answeredAt === 0) answeredAt = performance.now();
      text += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
    socket.on('connect', () => {
      headBytes = Buffer.byteLength(head, 'latin1');
      socket.write(head, 'latin1');
      headSentAt = performance.now();
      const pump = (): void => {
        while (pushed < pushBytes && !socket.destroyed) {
          const next = piece.subarray(0, Math.min(piece.length, pushBytes - pushed));
          pushed += next.length;
          if (!socket.write(next)) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
  });
}

/** The JSON body of a raw response text, undefined when it has none. */
export function rawResponseJson(text: string): unknown {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  let body = rest.join('\r\n\r\n');
  // A chunked answer (the edge app's): join the chunks' data, dropping the size lines.
  if (/^transfer-encoding:\s*chunked/im.test(head))
    body = body
      .split('\r\n')
      .filter((_line, index) => index % 2 === 1)
      .join('');
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/** A raw response text as the contract's JsonReply (its status, headers, body and JSON), to hold it to the envelopes. */
export function rawJsonReply(text: string): JsonReply {
  const [head = ''] = text.split('\r\n\r\n');
  const headers = new Headers();
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const json = rawResponseJson(text);
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
    headers,
    json,
    text: json === undefined ? text.slice(head.length + 4) : JSON.stringify(json),
  };
}
