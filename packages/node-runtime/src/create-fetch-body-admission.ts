import { GatewayError } from '@infergate/core';
import { createBodyAdmission, type BodyTicket } from './create-body-admission.js';

/** A fetch `Request` body's ticket: `signal` is aborted with the 408 when the body stops arriving. */
export interface FetchBodyTicket extends BodyTicket {
  readonly signal: AbortSignal;
}

/** createBodyAdmission for a fetch `Request` (the edge app on Node reads it as a Web stream). */
export type FetchBodyAdmission = (
  request: Request,
  routeLimit: number,
) => FetchBodyTicket | undefined;

/**
 * The in-flight body budget and the body idle limit, with the node-server's rules, for an app built on
 * fetch Requests (the edge app on Node): its reader stops at the ticket's signal.
 */
export function createFetchBodyAdmission(options: {
  maxInflightBodyBytes: number;
  bodyIdleMs: number;
}): FetchBodyAdmission {
  const admit = createBodyAdmission(options);
  return (request, routeLimit) => {
    const idle = new AbortController();
    const headers = {
      contentLength: request.headers.get('content-length'),
      chunked: request.headers.has('transfer-encoding'),
    };
    const ticket = admit(headers, routeLimit, () => idle.abort(GatewayError.requestTimeout()));
    return ticket === undefined ? undefined : Object.assign(ticket, { signal: idle.signal });
  };
}
