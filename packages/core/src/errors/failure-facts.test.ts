import { describe, expect, it } from 'vitest';
import { failureFacts, failureLogFields } from './failure-facts.js';
import { GatewayError } from './gateway-error.js';
import { mapUpstreamStatus } from './map-upstream-status.js';
import { UpstreamError } from './upstream-error.js';

describe('failureFacts', () => {
  it('names the transport failure by its kind', () => {
    expect(
      failureFacts(new UpstreamError({ kind: 'reset', phase: 'headers', message: 'lost' })),
    ).toEqual({ cause: 'reset' });
  });

  it('keeps the upstream status of a mapped answer, for 502 and for 504', () => {
    expect(
      failureFacts(mapUpstreamStatus(500, { error: { message: 'secret body' } }, undefined)),
    ).toEqual({ cause: 'bad_status', upstreamStatus: 500 });
    expect(failureFacts(mapUpstreamStatus(408, undefined, undefined))).toEqual({
      cause: 'bad_status',
      upstreamStatus: 408,
    });
  });

  it('keeps the JSON path of a body that failed, and the error code otherwise', () => {
    expect(
      failureFacts(
        GatewayError.upstreamBodyInvalid(
          'unexpected',
          'choices[0].message.content: expected string',
        ),
      ),
    ).toEqual({
      cause: 'unparseable_body',
      path: 'choices[0].message.content: expected string',
    });
    expect(failureFacts(GatewayError.modelNotConfigured('gamma-m3'))).toEqual({
      cause: 'model_not_configured',
    });
    expect(failureFacts(new TypeError('x is undefined'))).toEqual({
      cause: 'internal_error',
      errorName: 'TypeError',
    });
  });

  it('gives the log fields with absent facts left out', () => {
    expect(failureLogFields({})).toEqual({ cause: 'unknown' });
    expect(
      failureLogFields({ attempts: 2, failure: { cause: 'bad_status', upstreamStatus: 503 } }),
    ).toEqual({
      cause: 'bad_status',
      attempts: 2,
      upstreamStatus: 503,
    });
  });
});
