// The bench's upstream: a vLLM-shaped model server that answers from precomputed bytes, so that the
// proxy under test, not the stub, is the bottleneck. Started as its own process by run-bench.mjs:
//   node stub-upstream.mjs <ports> <longChunks> <longIntervalMs>
// It listens on `ports` loopback ports (several origins let the gateway open more than one pool of
// 256 connections for the long-stream scenario) and prints one JSON line: {"ports":[...]}.
import { createServer } from 'node:http';
import {
  chatCompletionBody,
  chatStreamEvents,
  embeddingsBody,
  imageEditBody,
  responsesStreamEvents,
} from './payloads.mjs';
import process from 'node:process';
import { Buffer } from 'node:buffer';
import { setInterval } from 'node:timers';

const portCount = Number(process.argv[2] ?? 1);
const longChunks = Number(process.argv[3] ?? 600);
const longIntervalMs = Number(process.argv[4] ?? 100);

const completion = Buffer.from(chatCompletionBody('stub-model'));
const shortStream = chatStreamEvents('stub-model', 32).map((event) => Buffer.from(event));
const longStream = chatStreamEvents('stub-long', longChunks).map((event) => Buffer.from(event));
const responsesStream = responsesStreamEvents('alpha36-35b-a3b-instruct', 32).map((event) =>
  Buffer.from(event),
);
const embeddings = Buffer.from(embeddingsBody('stub-embed', 16, 1024));
const embeddingsBase64 = Buffer.from(embeddingsBody('stub-embed', 16, 1024, 'base64'));
const imageEdit = Buffer.from(imageEditBody());

const jsonHeaders = (length) => ({ 'content-type': 'application/json', 'content-length': length });
const sseHeaders = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** Long streams share one ticker: every tick writes the next event of every running stream. */
const running = new Set();
setInterval(() => {
  for (const stream of running) {
    const event = longStream[stream.next];
    stream.next += 1;
    if (event === undefined) {
      running.delete(stream);
      stream.response.end();
    } else {
      stream.response.write(event);
    }
  }
}, longIntervalMs).unref();

function sendStream(response, events) {
  response.writeHead(200, sseHeaders);
  // One write per event, as a model server flushes them: the proxy sees 32 separate chunks.
  for (const event of events) response.write(event);
  response.end();
}

function answer(request, response, body) {
  const url = request.url ?? '';
  if (request.method === 'POST' && url === '/v1/chat/completions') {
    if (!body.includes('"stream":true')) {
      response.writeHead(200, jsonHeaders(completion.length)).end(completion);
    } else if (body.includes('stub-long') || body.includes('alpha35-122b-a10b-instruct-general')) {
      response.writeHead(200, sseHeaders);
      const stream = { response, next: 0 };
      running.add(stream);
      response.on('close', () => running.delete(stream));
    } else {
      sendStream(response, shortStream);
    }
  } else if (request.method === 'POST' && url === '/v1/responses') {
    // Only direct and floor call this: infergate turns /v1/responses into a chat stream upstream.
    sendStream(response, responsesStream);
  } else if (request.method === 'POST' && url === '/v1/embeddings') {
    // vLLM answers in the form asked for (scenario 10 asks for base64, as openai-node does by default).
    const answer = body.includes('"encoding_format":"base64"') ? embeddingsBase64 : embeddings;
    response.writeHead(200, jsonHeaders(answer.length)).end(answer);
  } else if (request.method === 'POST' && url === '/v1/images/edits') {
    response.writeHead(200, jsonHeaders(imageEdit.length)).end(imageEdit);
  } else if (request.method === 'GET') {
    const health = Buffer.from('{"status":"ok"}');
    response.writeHead(200, jsonHeaders(health.length)).end(health);
  } else {
    const missing = Buffer.from('{"error":{"message":"not found"}}');
    response.writeHead(404, jsonHeaders(missing.length)).end(missing);
  }
}

function onRequest(request, response) {
  // Only the chat and embeddings routes look at their bodies (a substring test); image bodies are drained unread.
  if (request.url === '/v1/chat/completions' || request.url === '/v1/embeddings') {
    let body = '';
    request.setEncoding('latin1');
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => answer(request, response, body));
  } else {
    request.on('end', () => answer(request, response, ''));
    request.resume();
  }
}

const servers = [];
const ports = [];
for (let index = 0; index < portCount; index += 1) {
  const server = createServer(
    { keepAliveTimeout: 120_000, headersTimeout: 130_000, requestTimeout: 0 },
    onRequest,
  );
  server.maxRequestsPerSocket = 0;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  ports.push(server.address().port);
}
process.stdout.write(`${JSON.stringify({ ports })}\n`);

const stop = () => {
  for (const server of servers) server.closeAllConnections();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
