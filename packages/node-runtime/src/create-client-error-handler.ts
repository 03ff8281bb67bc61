import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { GatewayError, type IdSource } from '@infergate/core';
import { errorResult, requestIdFor } from '@infergate/core';

interface ConnectionError extends Error {
  code?: string;
}

function errorFor(error: ConnectionError): GatewayError {
  // Node raises ERR_HTTP_REQUEST_TIMEOUT for both the inbound headers timeout and the whole-request timeout.
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return GatewayError.requestTimeout();
  if (error.code === 'HPE_HEADER_OVERFLOW') return GatewayError.headersTooLarge();
  return GatewayError.badRequest('The request is not valid HTTP/1.1.', null, 'malformed_request');
}

/**
 * Node's `clientError` hook: failures found before Fastify sees a request (slow or oversized headers,
 * a body that does not arrive within the request timeout, request smuggling attempts). Answers in
 * the native envelope (the path may not even be known) and closes the connection, as Node itself does.
 */
export function createClientErrorHandler(ids: IdSource): (error: ConnectionError, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // Same guard as Node's default handler: never write a status line into a response already under way.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && inFlight?.headersSent !== true) {
      const result = errorResult(errorFor(error), 'native', requestIdFor(undefined, ids));
      const headers = { ...result.headers, 'content-length': String(Buffer.byteLength(result.body)), connection: 'close' };
      const head = Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`HTTP/1.1 ${result.status} ${STATUS_CODES[result.status] ?? ''}\r\n${head}\r\n${result.body}`);
    }
    socket.destroy();
  };
}
