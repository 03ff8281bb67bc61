import { describe, expect, it } from 'vitest';
import { envelopeForPath, errorBody, errorStatus } from './error-envelopes.js';
import { GatewayError } from './gateway-error.js';

describe("the Messages API's error envelope", () => {
  it('is used on /v1/messages and its sub-paths only', () => {
    expect(envelopeForPath('/v1/messages')).toBe('anthropic');
    expect(envelopeForPath('/v1/messages/count_tokens')).toBe('anthropic');
    expect(envelopeForPath('/v1/chat/completions')).toBe('native');
    expect(envelopeForPath('/compat/v2/embed')).toBe('compat');
  });

  it.each([
    [GatewayError.missingParameter('max_tokens'), 400, 'invalid_request_error'],
    [GatewayError.unauthorized(), 401, 'authentication_error'],
    [GatewayError.modelNotAllowed('m'), 403, 'permission_error'],
    [GatewayError.modelNotFound('m'), 404, 'not_found_error'],
    [GatewayError.payloadTooLarge(10), 413, 'request_too_large'],
    [GatewayError.rateLimited('slow down', 1), 429, 'rate_limit_error'],
    [GatewayError.upstreamFailed(), 502, 'api_error'],
    [GatewayError.overloaded(), 529, 'overloaded_error'],
  ])('%s answers %i with type %s', (error, status, type) => {
    expect(errorStatus(error, 'anthropic')).toBe(status);
    expect(JSON.parse(errorBody(error, 'anthropic', 'req_1'))).toEqual({
      type: 'error',
      error: { type, message: error.message },
    });
  });

  it('keeps 503 for the gateway at capacity in the other envelopes', () => {
    expect(errorStatus(GatewayError.overloaded(), 'native')).toBe(503);
  });
});
