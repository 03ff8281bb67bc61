import { isUtf8 } from 'node:buffer';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { GatewayError } from '@infergate/core';
import type { BodyAdmission, BodyTicket } from './create-body-admission.js';

export interface RequestBodyOptions {
  /** The route's body limit in bytes: past it the body is refused with 413. */
  limit: number;
  /** The request's headers: its Content-Length and Transfer-Encoding. */
  headers: IncomingHttpHeaders;
  /** Holds the body against the in-flight budget (503 overloaded) and cuts it with 408 when it stops arriving. */
  admit?: BodyAdmission | undefined;
}

type Done = (error: Error | null, body?: string) => void;

/**
 * Reads a request body of a Node server as text, for core: a body of declared length is copied into one
 * buffer of that size as it arrives, a single chunk decoded as it came (Fastify's own reader held three
 * copies of an image edit at once). Refusals are core's errors: 413 past `limit`, 400 for a length
 * other than Content-Length or bytes that are not UTF-8; a broken stream fails with its own error.
 * Returns the body's hold on the budget, released when the request is handled (twice is safe).
 */
export function readRequestBody(
  payload: Readable,
  options: RequestBodyOptions,
  done: Done,
): BodyTicket | undefined {
  const { limit, headers } = options;
  const contentLength = Number(headers['content-length']);
  if (contentLength > limit) {
    done(GatewayError.payloadTooLarge(limit));
    return undefined;
  }
  const declared = Number.isInteger(contentLength) && contentLength >= 0;
  let received = 0;
  let first: Buffer | undefined;
  let whole: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let ticket: BodyTicket | undefined;
  try {
    ticket = options.admit?.(
      {
        contentLength: headers['content-length'],
        chunked: headers['transfer-encoding'] !== undefined,
      },
      limit,
      () => fail(GatewayError.requestTimeout()),
    );
  } catch (error) {
    fail(error as Error);
    return undefined;
  }

  function stop(): void {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onEnd);
  }

  // The body is refused (413, 503, 408, a broken stream): what it holds is given back at once.
  function fail(error: Error): void {
    stop();
    ticket?.release();
    first = whole = chunks = undefined;
    done(error);
  }

  function onData(chunk: Buffer | string): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const offset = received;
    received += bytes.byteLength;
    if (received > limit) return fail(GatewayError.payloadTooLarge(limit));
    if (ticket !== undefined && !ticket.take(bytes.byteLength))
      return fail(GatewayError.overloaded());
    if (offset === 0) {
      first = bytes;
      return;
    }
    if (declared && received <= contentLength) {
      if (whole === undefined) {
        whole = Buffer.allocUnsafe(contentLength);
        first?.copy(whole, 0);
        first = undefined;
      }
      bytes.copy(whole, offset);
      return;
    }
    // No declared length (chunked), or more bytes than declared (answered 400 at the end): kept as chunks.
    chunks ??=
      whole === undefined ? (first === undefined ? [] : [first]) : [whole.subarray(0, offset)];
    first = whole = undefined;
    chunks.push(bytes);
  }

  function onEnd(error?: Error & { statusCode?: number }): void {
    if (error !== undefined) {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400))
        error.statusCode = 400;
      return fail(error);
    }
    if (!Number.isNaN(contentLength) && received !== contentLength)
      return fail(
        GatewayError.badRequest(
          'The request body length does not match its Content-Length header.',
        ),
      );
    stop();
    ticket?.received();
    const bytes = chunks === undefined ? (whole ?? first) : Buffer.concat(chunks, received);
    first = whole = chunks = undefined;
    if (bytes === undefined) return done(null, '');
    // toString would replace bad bytes with U+FFFD and the request would go on as if the client had sent that.
    if (!isUtf8(bytes)) return done(GatewayError.invalidUtf8());
    done(null, bytes.toString('utf8'));
  }

  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
  return ticket;
}
