import type { RequestOptions } from '../client-options.js';
import { APIConnectionError } from '../errors/connection-errors.js';
import type { StreamSource } from '../streaming/read-stream-events.js';
import { sendRequest } from './send-request.js';
import type { ApiRequest, TransportConfig } from './transport-config.js';

/**
 * Sends a streaming request and resolves once the response headers are in, with errors before that
 * thrown (and retried) like any request. What the caller builds from the open body is never retried.
 */
export function openStream<T>(
  config: TransportConfig,
  request: ApiRequest,
  options: RequestOptions,
  build: (source: StreamSource, abortController: AbortController) => T,
): Promise<T> {
  return sendRequest(config, request, options, 'stream', async (response, scope) => {
    if (response.body === null)
      throw new APIConnectionError({
        message: 'The gateway answered a stream request without a body.',
      });
    const source: StreamSource = {
      response: response as StreamSource['response'],
      requestId: response.headers.get('x-request-id'),
      signal: scope.signal,
      userSignal: options.signal,
      release: scope.release,
    };
    return build(source, scope.controller);
  });
}
