import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earlyAnswerLinger, type JsonResult } from '@infergate/core';
import { answerBeforeBody, bodyInFlight } from './answer-before-body.js';

const mib = 1024 * 1024;
const refusal: JsonResult = {
  kind: 'json',
  status: 413,
  headers: { 'content-type': 'application/json', 'x-request-id': 'req-1' },
  body: '{"error":{"message":"too large"}}',
  meta: {},
};

describe('answerBeforeBody: an answer given before the body arrived reaches a client still sending', () => {
  let server: Server;
  let url: string;
  const inFlight: boolean[] = [];

  beforeAll(async () => {
    // Answers every request at once, before reading a byte of its body.
    server = createServer((request, response) => {
      inFlight.push(bodyInFlight(request));
      answerBeforeBody(request, response, refusal);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('lets a node:http client sending 64 MiB read the whole answer, without EPIPE or ECONNRESET', async () => {
    const piece = Buffer.alloc(64 * 1024, 0x61);
    for (const declared of [true, false]) {
      const outcome = await new Promise<{
        status: number;
        body: string;
        error: string | undefined;
      }>((resolve) => {
        let status = 0;
        let body = '';
        let error: string | undefined;
        const client = httpRequest(url, {
          method: 'POST',
          agent: false,
          headers: declared ? { 'content-length': String(64 * mib) } : {},
        });
        client.on('response', (response: IncomingMessage) => {
          status = response.statusCode ?? 0;
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
        });
        client.on('error', (failure: NodeJS.ErrnoException) => (error ??= failure.code));
        client.on('close', () => resolve({ status, body, error }));
        let written = 0;
        const pump = (): void => {
          while (written < 64 * mib && !client.destroyed) {
            written += piece.length;
            if (!client.write(piece)) return void client.once('drain', pump);
          }
          client.end();
        };
        pump();
      });
      expect(outcome).toEqual({ status: 413, body: refusal.body, error: undefined });
    }
    expect(inFlight).toEqual([true, true]);
  });

  it('closes, after sending the answer and a FIN, a client that ignores both and keeps pushing, once the bound is read', async () => {
    const { hostname, port } = new URL(url);
    const result = await new Promise<{ text: string; ended: boolean; accepted: number }>(
      (resolve) => {
        // allowHalfOpen: the client does not end its side on the server's FIN, and keeps writing.
        const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
        let text = '';
        let ended = false;
        const piece = Buffer.alloc(64 * 1024, 0x61);
        socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
        socket.on('end', () => (ended = true));
        socket.on('error', () => undefined);
        socket.on('close', () => resolve({ text, ended, accepted: socket.bytesWritten }));
        socket.on('connect', () => {
          socket.write(`POST / HTTP/1.1\r\nhost: test\r\ncontent-length: ${1024 * mib}\r\n\r\n`);
          const pump = (): void => {
            while (!socket.destroyed)
              if (!socket.write(piece)) return void socket.once('drain', pump);
          };
          pump();
        });
      },
    );
    expect(result.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.text.toLowerCase()).toContain('connection: close');
    expect(result.text.endsWith(refusal.body as string)).toBe(true);
    expect(result.ended).toBe(true);
    // What the server read and dropped, plus both ends' socket buffers: far below the 1 GiB declared.
    expect(result.accepted).toBeLessThanOrEqual(earlyAnswerLinger.bytes + 32 * mib);
  });

  it('tells a body still in flight from none or one already read', () => {
    const message = (headers: Record<string, string>, complete: boolean) =>
      ({ headers, complete }) as IncomingMessage;
    expect(bodyInFlight(message({ 'content-length': '10' }, false))).toBe(true);
    expect(bodyInFlight(message({ 'transfer-encoding': 'chunked' }, false))).toBe(true);
    expect(bodyInFlight(message({ 'content-length': '10' }, true))).toBe(false);
    expect(bodyInFlight(message({ 'content-length': '0' }, false))).toBe(false);
    expect(bodyInFlight(message({}, false))).toBe(false);
  });
});
