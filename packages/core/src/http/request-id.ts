import type { IdSource } from '../ports/ports.js';

// Restricted so that an echoed id cannot inject into a header, a log line or a JSON body.
const validRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/** The incoming `x-request-id` when it is 1..128 characters of [A-Za-z0-9._:-], else `req_` + 24 hex. */
export function requestIdFor(incoming: string | undefined, ids: IdSource): string {
  if (incoming !== undefined && validRequestId.test(incoming)) return incoming;
  return `req_${ids.hex(24)}`;
}
