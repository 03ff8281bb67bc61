import type { Readable } from 'node:stream';
import { errorCodes, type FastifyRequest } from 'fastify';
import { GatewayError } from '@infergate/core';
import type { BodyAdmission, BodyTicket } from '@infergate/node-runtime';

type Done = (error: Error | null, body?: string) => void;

interface CountedPayload extends Readable {
  receivedEncodedLength?: number;
}

/**
 * Fastify's content-type parser for JSON bodies, kept as text for core. Fastify's own (`parseAs:
 * 'string'`) keeps every chunk, concatenates them into a second buffer and decodes that: three copies
 * of a 50 MiB image edit at once. Here a body of declared length is copied into one buffer of that
 * size as it arrives, each chunk free for the collector once copied; a single-chunk body is decoded
 * as it came. Limits and failures are Fastify's: 413 past the route's limit (checked per chunk),
 * 400 for a length that differs from Content-Length or a broken stream. `admit` holds the body against
 * the in-flight budget (503 overloaded) and cuts it with 408 when it stops arriving; its ticket is kept
 * in the request's state until the request is handled.
 */
export function readJsonBody(request: FastifyRequest, payload: CountedPayload, done: Done, admit?: BodyAdmission): void {
  const limit = request.routeOptions.bodyLimit ?? Number.POSITIVE_INFINITY;
  const contentLength = Number(request.headers['content-length']);
  if (contentLength > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  const declared = Number.isInteger(contentLength) && contentLength >= 0;
  let received = 0;
  let first: Buffer | undefined;
  let whole: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let ticket: BodyTicket | undefined;
  try {
    const headers = { contentLength: request.headers['content-length'], chunked: request.headers['transfer-encoding'] !== undefined };
    ticket = admit?.(headers, limit, () => fail(GatewayError.requestTimeout()));
  } catch (error) {
    return fail(error as Error);
  }
  if (ticket !== undefined && request.requestState !== null) request.requestState.body = ticket;

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
    if (received > limit || (payload.receivedEncodedLength ?? 0) > limit) return fail(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    if (ticket !== undefined && !ticket.take(bytes.byteLength)) return fail(GatewayError.overloaded());
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
    chunks ??= whole === undefined ? (first === undefined ? [] : [first]) : [whole.subarray(0, offset)];
    first = whole = undefined;
    chunks.push(bytes);
  }

  function onEnd(error?: Error & { statusCode?: number }): void {
    if (error !== undefined) {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
      return fail(error);
    }
    if (!Number.isNaN(contentLength) && (payload.receivedEncodedLength || received) !== contentLength)
      return fail(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    stop();
    ticket?.received();
    const bytes = chunks === undefined ? (whole ?? first) : Buffer.concat(chunks, received);
    first = whole = chunks = undefined;
    done(null, bytes === undefined ? '' : bytes.toString('utf8'));
  }

  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
}
