import { InfergateError } from './infergate-error.js';

/** 400: the request is malformed or names a model on the wrong endpoint; `param` names the field. */
export class BadRequestError extends InfergateError {
  override readonly name: string = 'BadRequestError';
}
/** 401: missing or unknown API key. */
export class AuthenticationError extends InfergateError {
  override readonly name: string = 'AuthenticationError';
}
/** 403: the key may not use this model. */
export class PermissionDeniedError extends InfergateError {
  override readonly name: string = 'PermissionDeniedError';
}
/** 404: unknown model (code model_not_found) or an endpoint the gateway does not serve. */
export class NotFoundError extends InfergateError {
  override readonly name: string = 'NotFoundError';
}
export class UnprocessableEntityError extends InfergateError {
  override readonly name: string = 'UnprocessableEntityError';
}
/** 429: retried automatically; thrown once retries are spent. */
export class RateLimitError extends InfergateError {
  override readonly name: string = 'RateLimitError';
}
/** 500 and above, and failures reported inside a stream after its 200. */
export class InternalServerError extends InfergateError {
  override readonly name: string = 'InternalServerError';
}
