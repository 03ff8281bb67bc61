import { describe, expect, it } from 'vitest';
import { errorFromResponse, errorFromStreamEvent } from './error-from-response.js';
import { InfergateError, isInfergateError } from './infergate-error.js';
import {
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
} from './status-errors.js';

const native = (code: string) =>
  JSON.stringify({
    error: { message: `failed: ${code}`, type: 'invalid_request_error', param: 'model', code },
  });

describe('errorFromResponse', () => {
  it('picks the class by status', () => {
    const classes = [
      [400, BadRequestError],
      [401, AuthenticationError],
      [403, PermissionDeniedError],
      [404, NotFoundError],
      [422, UnprocessableEntityError],
      [429, RateLimitError],
      [500, InternalServerError],
      [502, InternalServerError],
      [503, InternalServerError],
      [504, InternalServerError],
    ] as const;
    for (const [status, ErrorClass] of classes) {
      const error = errorFromResponse(status, new Headers(), native('x'));
      expect(error, String(status)).toBeInstanceOf(ErrorClass);
      expect(error.status).toBe(status);
    }
    const other = errorFromResponse(413, new Headers(), native('request_too_large'));
    expect(other.constructor).toBe(InfergateError);
    expect(other.name).toBe('InfergateError');
  });

  it('reads the native envelope and the request id header', () => {
    const error = errorFromResponse(
      404,
      new Headers({ 'x-request-id': 'req-1' }),
      native('model_not_found'),
    );
    expect(error).toMatchObject({
      message: 'failed: model_not_found',
      type: 'invalid_request_error',
      code: 'model_not_found',
      param: 'model',
      requestId: 'req-1',
      name: 'NotFoundError',
    });
  });

  it('reads the compat envelope, taking its id as the request id when the header is missing', () => {
    const error = errorFromResponse(
      400,
      new Headers(),
      JSON.stringify({ id: 'req-2', message: 'bad input_type' }),
    );
    expect(error).toMatchObject({
      message: 'bad input_type',
      type: null,
      code: null,
      param: null,
      requestId: 'req-2',
    });
  });

  it('keeps a body that is not JSON as the message', () => {
    const error = errorFromResponse(502, new Headers(), '<html>Bad Gateway</html>');
    expect(error.message).toBe('<html>Bad Gateway</html>');
    expect(error.body).toBe('<html>Bad Gateway</html>');
  });
});

describe('errorFromStreamEvent', () => {
  it('maps the native envelope of a chat error chunk by its type', () => {
    const error = errorFromStreamEvent(
      {
        error: {
          message: 'upstream timed out',
          type: 'api_error',
          param: null,
          code: 'upstream_timeout',
        },
      },
      'req-3',
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({
      status: undefined,
      code: 'upstream_timeout',
      requestId: 'req-3',
    });
    expect(
      errorFromStreamEvent(
        { error: { message: 'slow down', type: 'rate_limit_error', code: null } },
        null,
      ),
    ).toBeInstanceOf(RateLimitError);
  });

  it('maps a responses error event', () => {
    const error = errorFromStreamEvent(
      { type: 'error', code: 'invalid_prompt', message: 'no', param: 'input', sequence_number: 3 },
      null,
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ code: 'invalid_prompt', param: 'input', message: 'no' });
  });
});

describe('isInfergateError', () => {
  it('recognizes an error from another copy of the SDK by its global brand', () => {
    const foreign = Object.assign(new Error('from another copy'), {
      [Symbol.for('infergate.sdk.error')]: true,
    });
    expect(isInfergateError(foreign)).toBe(true);
    expect(isInfergateError(new BadRequestError({ message: 'x' }))).toBe(true);
    expect(isInfergateError(new Error('plain'))).toBe(false);
    expect(isInfergateError(null)).toBe(false);
  });
});
