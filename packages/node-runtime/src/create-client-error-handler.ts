import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import {
  GatewayError,
  errorResult,
  requestIdFor,
  requestLogLine,
  type IdSource,
} from '@infergate/core';
import type { NodeRefusalOptions } from './node-refusal-options.js';

interface ConnectionError extends Error {
  code?: string;
  /** The chunk being parsed when the error came, and how far into it (Node's parse errors). */
  rawPacket?: unknown;
  bytesParsed?: unknown;
}

// Statuses written on the socket of a request the app was still handling, by its response.
const answeredOnSocket = new WeakMap<ServerResponse, number>();

/**
 * The status this handler wrote for a request the app was still handling (its body stopped within the
 * whole-request timeout: 408), so that the app logs and counts what the client got rather than 499.
 */
export function statusAnsweredOnSocket(response: ServerResponse): number | undefined {
  return answeredOnSocket.get(response);
}

/** The line of the request being read when the error came: from the last line break before the error to it. */
function lineAtError(error: ConnectionError): string | undefined {
  if (!Buffer.isBuffer(error.rawPacket)) return undefined;
  const end =
    typeof error.bytesParsed === 'number'
      ? Math.min(error.bytesParsed, error.rawPacket.length)
      : error.rawPacket.length;
  const start = error.rawPacket.lastIndexOf('\n', end - 1) + 1;
  return error.rawPacket.toString('latin1', start, Math.min(end, start + 64));
}

// A method, a space, then a target: the request line; a header line has its colon before any space.
const requestLineStart = /^([A-Z]{1,20}) [^ :]/;

function errorFor(error: ConnectionError): GatewayError {
  // Node raises ERR_HTTP_REQUEST_TIMEOUT for both the inbound headers timeout and the whole-request timeout.
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return GatewayError.requestTimeout();
  // Node's header limit counts the request line too: past it while reading that line, the URL is what is too long.
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return requestLineStart.test(lineAtError(error) ?? '')
      ? GatewayError.uriTooLong()
      : GatewayError.headersTooLarge();
  return GatewayError.badRequest('The request is not valid HTTP/1.1.', null, 'malformed_request');
}

/**
 * Node's `clientError` hook: failures found before the app sees a request (slow or oversized headers, a
 * URL over the limit, a body late for the request timeout, smuggling attempts), answered in the native
 * envelope before the connection closes, as Node does. A refusal of a request the app never saw is
 * logged and counted here (`unmatched`); one the app was handling is left to the app
 * (statusAnsweredOnSocket).
 */
export function createClientErrorHandler(
  ids: IdSource,
  options: NodeRefusalOptions = {},
): (error: ConnectionError, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // Same guard as Node's default handler: never write a status line into a response already under way.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (socket.writable && inFlight?.headersSent !== true) {
      const requestId = requestIdFor(undefined, ids);
      const result = errorResult(errorFor(error), 'native', requestId);
      const headers = {
        ...result.headers,
        'content-length': String(Buffer.byteLength(result.body)),
        connection: 'close',
      };
      const head = Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(
        `HTTP/1.1 ${result.status} ${STATUS_CODES[result.status] ?? ''}\r\n${head}\r\n${result.body}`,
      );
      if (inFlight !== undefined) answeredOnSocket.set(inFlight, result.status);
      else {
        const method = requestLineStart.exec(lineAtError(error) ?? '')?.[1];
        options.log?.(
          requestLogLine({ requestId, method, route: 'unmatched', status: result.status }),
        );
        options.metrics?.record({ requestId, operationId: 'unmatched', status: result.status });
      }
    }
    socket.destroy();
  };
}
