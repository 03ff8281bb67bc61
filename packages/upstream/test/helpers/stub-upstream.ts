import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Which connection (0-based, in accept order) carried it. */
  connection: number;
  /** Resolves with Date.now() when the request's socket closes. */
  socketClosed: Promise<number>;
}

export type StubHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  recorded: RecordedRequest,
  index: number,
) => void | Promise<void>;

export interface StubUpstream {
  url: string;
  requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1:0 that records what it saw and answers through `handler`. */
export async function startStub(handler: StubHandler): Promise<StubUpstream> {
  const requests: RecordedRequest[] = [];
  const sockets = new Map<Socket, { id: number; closed: Promise<number> }>();
  let connectionCount = 0;
  const server: Server = createServer((request, response) => {
    const socketInfo = sockets.get(request.socket);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const recorded: RecordedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        connection: socketInfo?.id ?? -1,
        socketClosed: socketInfo?.closed ?? Promise.resolve(Date.now()),
      };
      requests.push(recorded);
      void handler(request, response, recorded, requests.length - 1);
    });
  });
  server.on('connection', (socket: Socket) => {
    socket.setNoDelay(true);
    const closed = new Promise<number>((resolve) =>
      socket.once('close', () => resolve(Date.now())),
    );
    sockets.set(socket, { id: connectionCount, closed });
    connectionCount += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connectionCount,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that was just free and is now closed: connecting to it is refused. */
export async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export function sseHeaders(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
}

/** Resolves on the response's next 'drain' or its 'close', leaving no listener behind. */
export function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      response.off('drain', done).off('close', done);
      resolve();
    };
    response.on('drain', done).on('close', done);
  });
}

export function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves with the close time, or rejects after `withinMs` (a generous bound, not a performance claim). */
export function closedWithin(recorded: RecordedRequest, withinMs: number): Promise<number> {
  return Promise.race([
    recorded.socketClosed,
    sleep(withinMs).then(() =>
      Promise.reject(new Error(`upstream socket still open after ${withinMs} ms`)),
    ),
  ]);
}
