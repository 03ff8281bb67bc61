import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RecordedRequest } from './recorded-request.js';
import { defaultUpstreamHandlers } from './default-upstream-handlers.js';

/** Answers one recorded request; it may write slowly, stall or destroy the socket. */
export type UpstreamHandler = (
  request: RecordedRequest,
  response: ServerResponse,
) => void | Promise<void>;

export interface RecordingUpstreamOptions {
  /** Per path (`/v1/chat/completions`) or per method and path (`POST /tokenize`); replace the defaults. */
  handlers?: Readonly<Record<string, UpstreamHandler>>;
  /** Answers paths no handler claims; a 404 in the vLLM error shape by default. */
  fallback?: UpstreamHandler;
}

export interface RecordingUpstream {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Every request in arrival order. */
  requests: RecordedRequest[];
  requestsTo(path: string): RecordedRequest[];
  /** Resolves with the first request to arrive after the call that satisfies `predicate`, or earlier ones already recorded. */
  waitForRequest(
    predicate: (request: RecordedRequest) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedRequest>;
  clear(): void;
  close(): Promise<void>;
}

const notFound: UpstreamHandler = (request, response) => {
  response.writeHead(404, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({
      error: {
        message: `The route ${request.path} does not exist on this test upstream.`,
        type: 'NotFoundError',
        param: null,
        code: 404,
      },
    }),
  );
};

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    // A gateway that aborts mid-body still leaves a record.
    request.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A real upstream on 127.0.0.1:0 that records every request (headers, parsed body, arrival and close
 * times, whether the gateway aborted it) and answers with vLLM-shaped defaults or the given handlers.
 */
export async function startRecordingUpstream(
  options: RecordingUpstreamOptions = {},
): Promise<RecordingUpstream> {
  const handlers: Record<string, UpstreamHandler> = {
    ...defaultUpstreamHandlers,
    ...options.handlers,
  };
  const requests: RecordedRequest[] = [];
  const waiters = new Set<(request: RecordedRequest) => void>();
  const sockets = new Set<Socket>();

  const server = createServer((incoming, response) => {
    const arrivedAt = Date.now();
    const url = new URL(incoming.url ?? '/', 'http://upstream.test');
    let markClosed: () => void = () => undefined;
    const record: RecordedRequest = {
      method: incoming.method ?? 'GET',
      path: url.pathname,
      headers: incoming.headers,
      rawBody: '',
      body: undefined,
      arrivedAt,
      closedAt: undefined,
      aborted: false,
      closed: new Promise<void>((resolve) => {
        markClosed = resolve;
      }),
    };
    response.once('close', () => {
      record.closedAt = Date.now();
      record.aborted = !response.writableFinished;
      markClosed();
    });
    void readBody(incoming).then(async (rawBody) => {
      record.rawBody = rawBody;
      record.body = parseJson(rawBody);
      requests.push(record);
      for (const waiter of waiters) waiter(record);
      const handler =
        handlers[`${record.method} ${record.path}`] ??
        handlers[record.path] ??
        options.fallback ??
        notFound;
      try {
        await handler(record, response);
      } catch (error) {
        if (!response.headersSent) {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify({
              error: {
                message: `test upstream handler failed: ${(error as Error).message}`,
                type: 'InternalServerError',
                param: null,
                code: 500,
              },
            }),
          );
        } else {
          response.destroy();
        }
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    requestsTo: (path) => requests.filter((request) => request.path === path),
    waitForRequest(predicate, timeoutMs = 5_000) {
      const already = requests.find(predicate);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching upstream request within ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = (request: RecordedRequest): void => {
          if (!predicate(request)) return;
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(request);
        };
        waiters.add(waiter);
      });
    },
    clear: () => {
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
