import { classifyTransportError } from './classify-transport-error.js';
import { jsonBodyBytes } from './encode-json-body.js';
import { headersToRecord } from './headers-to-record.js';
import { joinUrl } from './join-url.js';
import { readWebStream } from './read-web-stream.js';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';
import { domAbortSignal } from './dom-abort-signal.js';

export interface FetchTransportOptions {
  /** The fetch to call; the runtime's global `fetch` by default. */
  fetch?: typeof fetch;
}

/**
 * A transport over the Fetch API, for runtimes without undici (Workers, Deno, Bun). Redirects are
 * returned, never followed: a model server has no business sending the gateway elsewhere. Fetch cannot
 * tell connecting from waiting, so the connect limit is the runtime's own; the first-byte and idle
 * limits are the port's timers on `signal`, cleared once the body flows, so no total timer cuts a
 * healthy stream.
 */
export function createFetchTransport(options: FetchTransportOptions = {}): Transport {
  const fetchFunction = options.fetch ?? globalThis.fetch.bind(globalThis);
  return {
    async request(request: TransportRequest): Promise<TransportResponse> {
      let response: Response;
      try {
        response = await fetchFunction(joinUrl(request.origin, request.path), {
          method: request.method,
          headers: request.headers,
          body: jsonBodyBytes(request.body),
          signal: domAbortSignal(request.signal),
          redirect: 'manual',
        });
      } catch (error) {
        throw classifyTransportError(error, 'headers');
      }
      return {
        status: response.status,
        headers: headersToRecord(response.headers),
        body: readWebStream(response.body, request.signal),
      };
    },
  };
}
