// The floor: the least a Node gateway can do. node:http in, one undici Pool out, no validation, no
// parsing, bodies piped both ways, the client's disconnect aborting the upstream call.
//   PORT=<port> node floor-proxy.mjs <upstream origin>
/* global AbortController */
import { createServer } from 'node:http';
import { pipeline } from 'node:stream';
import { undici } from './load-undici.mjs';
import { reportLoopStats } from './report-loop-stats.mjs';
import process from 'node:process';

reportLoopStats();
const origin = process.argv[2];
if (!origin) throw new Error('usage: floor-proxy.mjs <upstream origin>');
const pool = new undici.Pool(origin, {
  connections: null,
  pipelining: 1,
  keepAliveTimeout: 60_000,
  bodyTimeout: 0,
  headersTimeout: 0,
});

const hopByHop = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'host',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

function forwardHeaders(headers) {
  const out = {};
  for (const name in headers) if (!hopByHop.has(name)) out[name] = headers[name];
  return out;
}

const server = createServer(
  { keepAliveTimeout: 72_000, requestTimeout: 0 },
  (request, response) => {
    const abort = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    pool
      .request({
        path: request.url,
        method: request.method,
        headers: forwardHeaders(request.headers),
        body: hasBody ? request : null,
        signal: abort.signal,
      })
      .then(
        ({ statusCode, headers, body }) => {
          response.writeHead(statusCode, forwardHeaders(headers));
          pipeline(body, response, () => undefined);
        },
        () => {
          if (!response.headersSent)
            response.writeHead(502, { 'content-type': 'application/json' });
          response.end('{"error":{"message":"upstream failed"}}');
        },
      );
  },
);
server.maxRequestsPerSocket = 0;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`floor listening on http://127.0.0.1:${server.address().port}\n`);
});

const stop = () => {
  server.closeAllConnections();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
