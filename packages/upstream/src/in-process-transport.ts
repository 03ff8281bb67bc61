import { jsonBodyBytes } from './encode-json-body.js';
import { headersToRecord } from './headers-to-record.js';
import { joinUrl } from './join-url.js';
import { raceAbort } from './race-abort.js';
import { readWebStream } from './read-web-stream.js';
import type { Transport, TransportRequest, TransportResponse } from './transport.js';
import { upstreamFailure } from './upstream-failure.js';
import { domAbortSignal } from './dom-abort-signal.js';

/** A Web-standard server: how the embedded local backend is exposed. */
export type WebHandler = (request: Request) => Promise<Response>;

/**
 * Calls a Web handler in the same process, no socket: the request carries the port's signal, and a
 * stop (abort or an early end of reading) cancels the handler's response body, which is how a
 * streaming handler learns its client left.
 */
export function createInProcessTransport(handler: WebHandler): Transport {
  return {
    async request(request: TransportRequest): Promise<TransportResponse> {
      const webRequest = new Request(joinUrl(request.origin, request.path), {
        method: request.method,
        headers: request.headers,
        body: jsonBodyBytes(request.body),
        signal: domAbortSignal(request.signal),
      });
      let response: Response;
      try {
        response = await raceAbort(handler(webRequest), request.signal);
      } catch {
        if (request.signal.aborted) throw request.signal.reason;
        // A handler that throws is a server failing before it answers: like a 500, not retried.
        throw upstreamFailure('protocol', 'headers');
      }
      const body = response.body;
      if (body !== null) {
        // Before anyone reads (a retried 503, say) the stream is not locked yet and is cancelled here;
        // once read, readWebStream cancels through its reader.
        const cancelUnread = () => {
          if (!body.locked) body.cancel(request.signal.reason).catch(() => {});
        };
        if (request.signal.aborted) cancelUnread();
        else request.signal.addEventListener('abort', cancelUnread, { once: true });
      }
      return {
        status: response.status,
        headers: headersToRecord(response.headers),
        body: readWebStream(body, request.signal),
      };
    },
  };
}
