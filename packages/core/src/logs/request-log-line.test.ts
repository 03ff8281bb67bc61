import { describe, expect, it } from 'vitest';
import { requestLogLine } from './request-log-line.js';

const base = {
  requestId: 'req-1',
  method: 'POST',
  route: '/v1/chat/completions',
  operationId: 'createChatCompletion',
  durationMs: 12,
};

describe('requestLogLine', () => {
  it('names the request, its model, upstream, tokens and key at info for an answer', () => {
    const line = requestLogLine({
      ...base,
      status: 200,
      meta: { model: 'm', endpoint: 'gpu-a', inputTokens: 7, outputTokens: 3, keyName: 'team-a' },
    });
    expect(line).toEqual({
      level: 'info',
      fields: {
        requestId: 'req-1',
        method: 'POST',
        route: '/v1/chat/completions',
        operationId: 'createChatCompletion',
        model: 'm',
        upstream: 'gpu-a',
        status: 200,
        durationMs: 12,
        inputTokens: 7,
        outputTokens: 3,
        keyName: 'team-a',
      },
    });
  });

  it.each([400, 401, 404, 408, 413, 414, 415, 429, 431])('logs a %i refusal at warn', (status) => {
    expect(requestLogLine({ ...base, status }).level).toBe('warn');
  });

  it('logs a client that went away (499) at info: it chose to leave', () => {
    expect(requestLogLine({ ...base, status: 499 }).level).toBe('info');
  });

  it.each([502, 503, 504])('logs a %i at warn with why it failed', (status) => {
    const line = requestLogLine({
      ...base,
      status,
      meta: {
        endpoint: 'gpu-a',
        attempts: 2,
        failure: { cause: 'bad_status', upstreamStatus: 500 },
      },
    });
    expect(line.level).toBe('warn');
    expect(line.fields).toMatchObject({
      upstream: 'gpu-a',
      attempts: 2,
      cause: 'bad_status',
      upstreamStatus: 500,
    });
  });

  it('logs an expected 503 overloaded at warn and an unexpected 500 at error, each with its cause', () => {
    expect(
      requestLogLine({ ...base, status: 503, meta: { failure: { cause: 'overloaded' } } }),
    ).toMatchObject({
      level: 'warn',
      fields: { cause: 'overloaded' },
    });
    expect(
      requestLogLine({
        ...base,
        status: 500,
        meta: { failure: { cause: 'internal_error', errorName: 'TypeError' } },
      }),
    ).toMatchObject({
      level: 'error',
      fields: { cause: 'internal_error', errorName: 'TypeError' },
    });
  });

  it('keeps the shape for a request that never got a route or a duration (a header timeout)', () => {
    expect(
      requestLogLine({ requestId: 'req-2', method: undefined, route: 'unmatched', status: 408 }),
    ).toEqual({
      level: 'warn',
      fields: expect.objectContaining({
        requestId: 'req-2',
        route: 'unmatched',
        status: 408,
        durationMs: undefined,
      }),
    });
  });
});
