import type { RequestOptions } from '../client-options.js';
import { InfergateError } from '../errors/infergate-error.js';
import { sendRequest } from './send-request.js';
import type { ApiRequest, TransportConfig } from './transport-config.js';

/** Sends a request and returns its parsed JSON body (retried as `sendRequest` describes). */
export function requestJson<T>(
  config: TransportConfig,
  request: ApiRequest,
  options: RequestOptions = {},
): Promise<T> {
  return sendRequest(config, request, options, 'json', async (response) => {
    const text = await response.text();
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new InfergateError({
        message: 'The gateway answered with a body that is not JSON.',
        status: response.status,
        requestId: response.headers.get('x-request-id'),
        headers: response.headers,
        body: text,
        cause: error,
      });
    }
  });
}
