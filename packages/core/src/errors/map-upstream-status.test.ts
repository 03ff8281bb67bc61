import { describe, expect, it } from 'vitest';
import { mapUpstreamStatus, readUpstreamErrorBody } from './map-upstream-status.js';

describe('mapUpstreamStatus (docs/design.md status mapping)', () => {
  it('passes a client 4xx through with the upstream message and param', () => {
    const error = mapUpstreamStatus(
      400,
      {
        error: {
          message: "This model's maximum context length is 8192 tokens",
          type: 'BadRequestError',
          param: 'input_tokens',
          code: 400,
        },
      },
      undefined,
    );
    expect(error).toMatchObject({ status: 400, code: 'upstream_rejected', param: 'input_tokens' });
    expect(error.message).toContain('maximum context length is 8192');
  });

  it('keeps 429 with Retry-After', () => {
    const error = mapUpstreamStatus(429, { message: 'slow down' }, '7');
    expect(error.status).toBe(429);
    expect(error.headers['retry-after']).toBe('7');
  });

  it('turns 5xx and upstream auth failures into 502', () => {
    expect(mapUpstreamStatus(500, undefined, undefined).status).toBe(502);
    expect(
      mapUpstreamStatus(503, { error: 'Unhealthy', error_type: 'Unhealthy' }, undefined).status,
    ).toBe(502);
    expect(mapUpstreamStatus(401, { error: 'Unauthorized' }, undefined).status).toBe(502);
  });

  it('reads the error shapes of vLLM, TEI, flat vLLM and FastAPI', () => {
    expect(readUpstreamErrorBody({ error: { message: 'm1', param: 'p' } })).toEqual({
      message: 'm1',
      param: 'p',
    });
    expect(readUpstreamErrorBody({ error: 'm2', error_type: 'Validation' })).toEqual({
      message: 'm2',
      param: null,
    });
    expect(readUpstreamErrorBody({ object: 'error', message: 'm3', param: null })).toEqual({
      message: 'm3',
      param: null,
    });
    expect(readUpstreamErrorBody({ detail: 'm4' })).toEqual({ message: 'm4', param: null });
    expect(readUpstreamErrorBody('<html>')).toEqual({ message: undefined, param: null });
  });
});
