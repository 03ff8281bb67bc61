import type { RequestOptions } from '../client-options.js';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
} from '../errors/connection-errors.js';
import { errorFromResponse } from '../errors/error-from-response.js';
import { isInfergateError, type InfergateError } from '../errors/infergate-error.js';
import { abortableSleep } from './abortable-sleep.js';
import { isRetryableStatus, retryDelayMs } from './retry-delay.js';
import type { ApiRequest, TransportConfig } from './transport-config.js';

/** An attempt's cancellation: the caller's signal and the per-attempt timeout feed one controller. */
export interface AttemptScope {
  controller: AbortController;
  signal: AbortSignal;
  /** Stops the timeout; the caller's signal stays linked until `release`. */
  stopTimer(): void;
  /** Unlinks the caller's signal; call once the body is read or the stream has ended. */
  release(): void;
  timedOut(): boolean;
}

function openScope(timeoutMs: number, userSignal: AbortSignal | undefined): AttemptScope {
  const controller = new AbortController();
  let timedOut = false;
  // Linked by hand rather than AbortSignal.any, which Node 20.0-20.2 and older browsers lack.
  const onUserAbort = (): void => controller.abort(userSignal?.reason);
  userSignal?.addEventListener('abort', onUserAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  return {
    controller,
    signal: controller.signal,
    stopTimer: () => clearTimeout(timer),
    release: () => {
      clearTimeout(timer);
      userSignal?.removeEventListener('abort', onUserAbort);
    },
    timedOut: () => timedOut,
  };
}

function headersFor(
  config: TransportConfig,
  request: ApiRequest,
  stream: boolean,
  options: RequestOptions,
): Record<string, string> {
  const headers: Record<string, string> = {
    accept: stream ? 'text/event-stream' : 'application/json',
    ...config.headers,
    ...options.headers,
    authorization: `Bearer ${config.apiKey}`,
  };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  return headers;
}

/** Turns whatever a failed fetch or body read threw into the SDK's error for it. */
function failureError(
  error: unknown,
  scope: AttemptScope,
  userSignal: AbortSignal | undefined,
  timeoutMs: number,
): InfergateError {
  if (isInfergateError(error)) return error;
  if (userSignal?.aborted) return new APIUserAbortError(userSignal.reason);
  if (scope.timedOut()) return new APITimeoutError(timeoutMs);
  return new APIConnectionError({ cause: error });
}

function isRetryable(error: InfergateError): boolean {
  if (error instanceof APIUserAbortError) return false;
  // The gateway's word wins (a spent budget waits hours): the header the openai client obeys too.
  if (error.headers?.get('x-should-retry') === 'false') return false;
  if (error instanceof APIConnectionError) return true;
  return error.status !== undefined && isRetryableStatus(error.status);
}

/**
 * Sends `request`, retrying on 429/502/503/504 and connection errors with backoff, and hands the 2xx
 * response to `read` inside the same attempt (so a non-streaming body that breaks off is retried too).
 * For streams `read` only returns the open response: once it has, nothing here retries again.
 */
export async function sendRequest<T>(
  config: TransportConfig,
  request: ApiRequest,
  options: RequestOptions,
  mode: 'json' | 'stream',
  read: (response: Response, scope: AttemptScope) => Promise<T>,
): Promise<T> {
  const timeoutMs = options.timeout ?? config.timeout;
  const maxRetries = options.maxRetries ?? config.maxRetries;
  const userSignal = options.signal;
  const url = `${config.baseURL}${request.path}`;
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const headers = headersFor(config, request, mode === 'stream', options);

  for (let retry = 0; ; retry += 1) {
    if (userSignal?.aborted) throw new APIUserAbortError(userSignal.reason);
    const scope = openScope(timeoutMs, userSignal);
    let failure: InfergateError;
    try {
      const response = await config.fetch(url, {
        method: request.method,
        headers,
        body,
        signal: scope.signal,
      });
      if (response.ok) {
        if (mode === 'stream') scope.stopTimer();
        const result = await read(response, scope);
        if (mode === 'json') scope.release();
        return result;
      }
      failure = errorFromResponse(response.status, response.headers, await response.text());
    } catch (error) {
      failure = failureError(error, scope, userSignal, timeoutMs);
    }
    scope.release();
    if (retry >= maxRetries || !isRetryable(failure)) throw failure;
    await abortableSleep(retryDelayMs(retry, failure.headers), userSignal);
  }
}
