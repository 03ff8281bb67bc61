import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayError, type IdSource } from '@infergate/core';
import type { NodeRefusalOptions } from './node-refusal-options.js';
import { refuseRequest } from './refuse-request.js';

/**
 * Node's `checkExpectation` hook: a request whose Expect header is not 100-continue, which Node would
 * answer with an empty 417 before the app sees it. Answered with 417 in the envelope instead.
 */
export function createExpectationHandler(
  ids: IdSource,
  options: NodeRefusalOptions = {},
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) =>
    refuseRequest(request, response, GatewayError.expectationFailed(), ids, options);
}
