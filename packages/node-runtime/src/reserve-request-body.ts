import { Transform, type Readable } from 'node:stream';
import { GatewayError, type BodyBudget, type BodyReservation } from '@infergate/core';

export interface BodyHeaders {
  contentLength: string | null | undefined;
  chunked: boolean;
}

export interface AdmittedBody {
  reservation: BodyReservation;
  /** A chunked body: its reservation grows with each chunk (countBodyChunk). */
  counted: boolean;
}

/**
 * Takes a request body's bytes from core's in-flight body budget before an app reads it. A declared
 * Content-Length is reserved whole, so an admitted body always completes and a refused one is 503
 * with Retry-After (thrown) before a byte is read; a chunked body starts at 0 and grows as it arrives.
 * A length over the route's limit is left to the app's 413; undefined when nothing is held.
 */
export function admitRequestBody(budget: BodyBudget, headers: BodyHeaders, routeLimit: number): AdmittedBody | undefined {
  const { contentLength, chunked } = headers;
  if (contentLength !== undefined && contentLength !== null && /^\d+$/.test(contentLength.trim())) {
    const bytes = Number(contentLength);
    if (bytes > routeLimit) return undefined;
    const reservation = budget.reserve(bytes);
    if (reservation === undefined) throw GatewayError.overloaded();
    return { reservation, counted: false };
  }
  if (!chunked) return undefined;
  return { reservation: budget.reserve(0) as BodyReservation, counted: true };
}

/** One chunk of a chunked body: false when the budget cannot take it (the app answers 503). */
export function countBodyChunk(reservation: BodyReservation, bytes: number, routeLimit: number): boolean {
  // Past the route's limit the app answers 413 and drops the rest: those bytes are not held.
  return reservation.bytes >= routeLimit || reservation.grow(bytes);
}

export interface ReservedBody {
  /** What to read the body from: the request itself, or a counting wrapper for a chunked body. */
  payload: Readable;
  /** Held against the budget until the request is handled; undefined when nothing is held. */
  reservation: BodyReservation | undefined;
}

/**
 * admitRequestBody for a Node readable body (the node-server calls it from Fastify's preParsing hook):
 * a chunked body is read through a counting wrapper that fails with 503 the moment it would pass the budget.
 */
export function reserveRequestBody(budget: BodyBudget, headers: BodyHeaders, routeLimit: number, payload: Readable): ReservedBody {
  const admitted = admitRequestBody(budget, headers, routeLimit);
  if (admitted === undefined || !admitted.counted) return { payload, reservation: admitted?.reservation };
  const { reservation } = admitted;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (countBodyChunk(reservation, chunk.byteLength, routeLimit)) callback(null, chunk);
      else callback(GatewayError.overloaded());
    },
  });
  payload.on('error', (error) => counted.destroy(error));
  // The app listens while it reads; once it has answered (413, 408) a late failure here only means the
  // connection is closing, and must not become an uncaught 'error' event.
  counted.on('error', () => undefined);
  return { payload: payload.pipe(counted), reservation };
}
