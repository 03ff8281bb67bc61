/** A `fetch` with the standard signature: the global one, undici's, or a test double. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /** The gateway's root, e.g. `http://127.0.0.1:8080` (paths such as `/v1/...` and `/tokenize` are appended). */
  baseURL: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  /** Defaults to the global `fetch`. */
  fetch?: FetchFunction;
  /**
   * Milliseconds per attempt: until the whole body arrived, or for streams until the response headers
   * (a long generation is bounded by the server's idle timeout, not by a total). Default 600000.
   */
  timeout?: number;
  /** Retries after the first attempt on 429, 502, 503, 504 and connection errors. Default 2. */
  maxRetries?: number;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

/** Per-call overrides. */
export interface RequestOptions {
  /** Aborts the request, or a stream while it is being read. */
  signal?: AbortSignal;
  timeout?: number;
  maxRetries?: number;
  headers?: Record<string, string>;
}
