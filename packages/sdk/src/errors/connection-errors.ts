import { InfergateError } from './infergate-error.js';

/** The request never got an HTTP answer: refused, reset, DNS, or the body broke off mid-read. */
export class APIConnectionError extends InfergateError {
  override readonly name: string = 'APIConnectionError';
  constructor(options: { message?: string; cause?: unknown } = {}) {
    super({ message: options.message ?? 'Connection error.', cause: options.cause });
  }
}

/** The `timeout` option ran out before the answer (for streams: before the response headers). */
export class APITimeoutError extends APIConnectionError {
  override readonly name: string = 'APITimeoutError';
  constructor(timeoutMs: number) {
    super({ message: `Request timed out after ${timeoutMs} ms.` });
  }
}

/** The caller's `signal` aborted the request or the stream. `cause` is the signal's reason. */
export class APIUserAbortError extends InfergateError {
  override readonly name: string = 'APIUserAbortError';
  constructor(reason?: unknown) {
    super({ message: 'Request was aborted.', cause: reason });
  }
}
