import type { FetchFunction } from '../client-options.js';

/** The client's resolved settings, shared by every resource. */
export interface TransportConfig {
  baseURL: string;
  apiKey: string;
  fetch: FetchFunction;
  timeout: number;
  maxRetries: number;
  headers: Record<string, string>;
}

export interface ApiRequest {
  method: 'GET' | 'POST';
  /** Starts with `/`, e.g. `/v1/chat/completions`. */
  path: string;
  body?: unknown;
}
