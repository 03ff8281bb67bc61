import { BodyBudget } from '@infergate/core';
import { admitRequestBody, countBodyChunk } from './reserve-request-body.js';

/** A request body's hold on the budget, for an app that reads the body itself (a Web stream). */
export interface BodyTicket {
  /** Counts one chunk read; false when the budget cannot take it (answer 503 overloaded). */
  take(bytes: number): boolean;
  /** Gives the held bytes back once the handler is done with the body. */
  release(): void;
}

/**
 * Admits a fetch `Request`'s body against the budget before it is read; throws 503 overloaded when
 * the budget refuses, undefined when nothing is held. See admitRequestBody.
 */
export type FetchBodyAdmission = (request: Request, routeLimit: number) => BodyTicket | undefined;

/**
 * The in-flight body budget (limits.max_inflight_body_bytes) for an app built on fetch Requests (the
 * edge app on Node), with the node-server's rules; no admission at all when the limit is 0.
 */
export function createFetchBodyAdmission(maxInflightBodyBytes: number): FetchBodyAdmission | undefined {
  if (maxInflightBodyBytes <= 0) return undefined;
  const budget = new BodyBudget(maxInflightBodyBytes);
  return (request, routeLimit) => {
    const headers = { contentLength: request.headers.get('content-length'), chunked: request.headers.has('transfer-encoding') };
    const admitted = admitRequestBody(budget, headers, routeLimit);
    if (admitted === undefined) return undefined;
    const { reservation, counted } = admitted;
    return {
      take: (bytes) => !counted || countBodyChunk(reservation, bytes, routeLimit),
      release: () => reservation.release(),
    };
  };
}
