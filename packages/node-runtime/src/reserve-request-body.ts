import { Transform, type Readable } from 'node:stream';
import { GatewayError, type BodyBudget, type BodyReservation } from '@infergate/core';

export interface ReservedBody {
  /** What to read the body from: the request itself, or a counting wrapper for a chunked body. */
  payload: Readable;
  /** Held against the budget until the request is handled; undefined when nothing is held. */
  reservation: BodyReservation | undefined;
}

/**
 * Takes a request body's bytes from core's in-flight body budget before a Node app reads it (the
 * node-server calls it from Fastify's preParsing hook). A declared
 * Content-Length is reserved whole, so an admitted body always completes and a refused one is 503 with
 * Retry-After before a byte is read; a chunked body grows its reservation as it arrives and fails with
 * 503 the moment it would pass the budget. A length over the route's limit is left to the app's 413.
 */
export function reserveRequestBody(budget: BodyBudget, headers: { contentLength: string | undefined; chunked: boolean }, routeLimit: number, payload: Readable): ReservedBody {
  const { contentLength, chunked } = headers;
  if (contentLength !== undefined && /^\d+$/.test(contentLength.trim())) {
    const bytes = Number(contentLength);
    if (bytes > routeLimit) return { payload, reservation: undefined };
    const reservation = budget.reserve(bytes);
    if (reservation === undefined) throw GatewayError.overloaded();
    return { payload, reservation };
  }
  if (!chunked) return { payload, reservation: undefined };
  const reservation = budget.reserve(0) as BodyReservation;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      // Past the route's limit the app answers 413 and drops the rest: those bytes are not held.
      if (reservation.bytes >= routeLimit || reservation.grow(chunk.byteLength)) callback(null, chunk);
      else callback(GatewayError.overloaded());
    },
  });
  payload.on('error', (error) => counted.destroy(error));
  // The app listens while it reads; once it has answered (413, 408) a late failure here only means the
  // connection is closing, and must not become an uncaught 'error' event.
  counted.on('error', () => undefined);
  return { payload: payload.pipe(counted), reservation };
}
