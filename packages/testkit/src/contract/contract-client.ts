import { holdToContract } from './hold-to-contract.js';

/** A running gateway as the contract suite sees it. */
export interface StartedGateway {
  /** Origin of the gateway, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  baseUrl: string;
  /** A key the gateway accepts. */
  apiKey: string;
  close(): Promise<void>;
}

/** A started gateway with the request log lines it wrote (their fields), and its metrics where it keeps them. */
export interface LoggedGateway extends StartedGateway {
  requestLog(): ReadonlyArray<Record<string, unknown>>;
  /** GET /metrics text, where the app keeps Prometheus metrics. */
  metrics?(): Promise<string>;
}

/** Starts the app under test from a config-file value with its test key, keeping its request log lines. */
export type StartLoggedGateway = (file: Record<string, unknown>) => Promise<LoggedGateway>;

export interface JsonReply {
  status: number;
  headers: Headers;
  json: unknown;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Leave out the Authorization header. */
  anonymous?: boolean;
}

/**
 * Plain fetch against the gateway with its key: what any HTTP client does. Every answer is held to its
 * route's contract (hold-to-contract.ts) before the test sees it.
 */
export class ContractClient {
  constructor(readonly gateway: StartedGateway) {}

  url(path: string): string {
    return `${this.gateway.baseUrl}${path}`;
  }

  headers(options: RequestOptions = {}, json = false): Record<string, string> {
    return {
      ...(options.anonymous ? {} : { authorization: `Bearer ${this.gateway.apiKey}` }),
      ...(json ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    };
  }

  async post(path: string, body: unknown, options: RequestOptions = {}): Promise<Response> {
    const url = this.url(path);
    return holdToContract(
      'POST',
      url,
      await fetch(url, {
        method: 'POST',
        headers: this.headers(options, true),
        body: typeof body === 'string' ? body : JSON.stringify(body),
        signal: options.signal,
      }),
    );
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const url = this.url(path);
    return holdToContract(
      method,
      url,
      await fetch(url, { method, headers: this.headers(options), signal: options.signal }),
    );
  }

  async postJson(path: string, body: unknown, options: RequestOptions = {}): Promise<JsonReply> {
    return toJsonReply(await this.post(path, body, options));
  }

  async getJson(path: string, options: RequestOptions = {}): Promise<JsonReply> {
    return toJsonReply(await this.request('GET', path, options));
  }
}

export async function toJsonReply(response: Response): Promise<JsonReply> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** `value` as a record, for field-by-field checks (fails the test when it is not an object). */
export function asRecord(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`expected a JSON object, got ${JSON.stringify(value)?.slice(0, 200)}`);
  return value as Record<string, unknown>;
}

export function asArray(value: unknown): unknown[] {
  if (!Array.isArray(value))
    throw new Error(`expected a JSON array, got ${JSON.stringify(value)?.slice(0, 200)}`);
  return value;
}
