import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  envelopeForPath,
  errorResult,
  requestIdFor,
  requestLogLine,
  type GatewayError,
  type IdSource,
} from '@infergate/core';
import type { NodeRefusalOptions } from './node-refusal-options.js';

/**
 * Answers a request the app never sees (Node hands it over before any router: an Expect it cannot
 * meet, an HTTP/1.1 request without Host) with `error` in the path's envelope, with its request id,
 * and closes the connection; logged and counted as the app's own requests are.
 */
export function refuseRequest(
  request: IncomingMessage,
  response: ServerResponse,
  error: GatewayError,
  ids: IdSource,
  options: NodeRefusalOptions,
): void {
  const incomingId = request.headers['x-request-id'];
  const requestId = requestIdFor(typeof incomingId === 'string' ? incomingId : undefined, ids);
  const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
  const result = errorResult(error, envelopeForPath(path), requestId);
  response.writeHead(result.status, {
    ...result.headers,
    'content-length': String(Buffer.byteLength(result.body)),
    connection: 'close',
  });
  response.end(result.body);
  options.log?.(
    requestLogLine({
      requestId,
      method: request.method,
      route: 'unmatched',
      status: result.status,
      durationMs: 0,
    }),
  );
  options.metrics?.record({ requestId, operationId: 'unmatched', status: result.status });
}
