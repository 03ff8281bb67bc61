import { connect } from 'node:net';

export interface RawExchange {
  /** Everything the server wrote before closing. */
  text: string;
  /** Milliseconds from connect to the server closing the connection. */
  closedAfterMs: number;
}

/**
 * Writes `parts` to a raw TCP connection with `gapMs` between them and reads until the server closes:
 * the slow and malformed clients of fault-matrix rows 5, 19 and 20, which no HTTP client can play.
 */
export function rawSocketExchange(
  url: string,
  parts: readonly string[],
  gapMs = 0,
  giveUpMs = 15_000,
): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const startedAt = Date.now();
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${giveUpMs} ms`));
    }, giveUpMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closedAfterMs: Date.now() - startedAt });
    });
    socket.on('connect', () => {
      void (async () => {
        for (const part of parts) {
          if (socket.destroyed) return;
          socket.write(part);
          if (gapMs > 0) await new Promise((resume) => setTimeout(resume, gapMs));
        }
      })();
    });
  });
}

/** Status code and JSON body of a raw HTTP/1.1 response text. */
export function parseRawResponse(text: string): { status: number; headers: string; body: unknown } {
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  let json: unknown;
  try {
    json = JSON.parse(body) as unknown;
  } catch {
    json = undefined;
  }
  return { status, headers: head.toLowerCase(), body: json };
}
