import type { FallbackReason } from '../catalogue/catalogue-types.js';
import type { CostPart } from '../config/request-cost.js';
import type { KeyBudget, KeyLimits } from '../config/gateway-config.js';
import type { SseEvent } from '../sse/sse-event.js';
import type { TakeableIterator } from '../sse/takeable-iterator.js';
import type { UpstreamProtocol } from '../config/protocol-names.js';

/**
 * Ports are the interfaces core declares and the other packages implement: core never does I/O itself.
 */

// Exported with the ports' types (core's public API); the names are listed once, in protocol-names.ts.
export type { UpstreamProtocol };

/**
 * What the gateway reads of an abort signal. A DOM `AbortSignal` is one (the edge app passes the
 * request's), and so is `LightAbortController`, which the Node side makes per request and per upstream
 * attempt. undici takes either: it asks only for `aborted`, `reason` and the two listener methods.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** How a catalogue model is reached: the protocol of the upstream serving it and the name it knows the model by. */
export interface UpstreamTarget {
  protocol: UpstreamProtocol;
  model: string;
  /** false when the model's upstreams offer no tokenizer route (config `tokenize: false`). */
  tokenize?: boolean;
}

export interface UpstreamCall {
  /** Catalogue id; the port picks an endpoint of this model's pool. */
  modelId: string;
  /** Path on the upstream origin, e.g. `/v1/chat/completions`, `/tokenize`, `/v2/rerank`. */
  path: string;
  /** A JSON value; the transport serializes it. */
  body: unknown;
  /** Expect `text/event-stream` back. */
  stream: boolean;
  /**
   * Hand back a 2xx JSON answer's bytes (`pieces`) instead of parsing it: for answers core reads in one
   * pass (embeddings), where a parse would build values only to write them again.
   */
  raw?: boolean;
  /** Aborts the upstream request; tied to the client connection. */
  signal: AbortSignalLike;
  requestId: string;
}

export interface UpstreamJsonResponse {
  kind: 'json';
  status: number;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string>>;
  /** The parsed JSON body, or undefined when the body was empty or not JSON (or is in `pieces`). */
  body: unknown;
  /**
   * The body's bytes for a 2xx answer to a `raw` call (whatever they hold), undecoded and in the pieces
   * they arrived in, so that core can send them on without a joined copy; absent otherwise.
   */
  pieces?: readonly Uint8Array[];
  /** Name of the endpoint that answered (for logs and metrics; never sent to clients). */
  endpoint: string;
  /** Attempts it took, this one included (for logs). */
  attempts?: number;
}

export interface UpstreamStreamResponse {
  kind: 'stream';
  status: number;
  headers: Readonly<Record<string, string>>;
  /**
   * Events as they arrive. Iteration throws an UpstreamError on idle timeout, reset or framing errors;
   * calling `return()` (breaking out of for-await) aborts the upstream request. `take()`, where the
   * port has it, hands out the events the last network read completed, without a wait.
   */
  events: TakeableIterator<SseEvent>;
  endpoint: string;
  attempts?: number;
}

export type UpstreamResponse = UpstreamJsonResponse | UpstreamStreamResponse;

/**
 * One configured upstream as its pool sees it: `up` (its latest outcome was not a failure to
 * connect), `unreachable` (it was, recently) or `ejected` (out of rotation after consecutive failures).
 */
export interface UpstreamHealth {
  /** The configured name (`upstreams[].name`); never its URL. */
  upstream: string;
  state: 'up' | 'unreachable' | 'ejected';
  /** The catalogue ids it serves. */
  models: readonly string[];
  /** Requests sent to it and not finished. */
  inFlight: number;
  /** Connect failures or 5xx answers since its last success. */
  consecutiveFailures: number;
  /** While ejected: milliseconds until it gets requests again; else 0. */
  ejectedForMs: number;
}

export interface UpstreamPort {
  /** Where a catalogue model is served, or undefined when no upstream is configured for it (503 model_not_configured). */
  target(modelId: string): UpstreamTarget | undefined;
  /**
   * Sends a request. Non-2xx answers resolve as `kind: 'json'` with their status (a stream request that
   * fails before its first event too); transport failures reject with an UpstreamError.
   */
  send(call: UpstreamCall): Promise<UpstreamResponse>;
  /**
   * How each configured upstream fares, from the outcomes of real traffic (no call of its own): for
   * `GET /upstreamz` and the metrics. Never part of readiness: one failing model server must not take
   * a replica that serves every other model out of its load balancer. Absent: nothing to report.
   */
  health?(): readonly UpstreamHealth[];
  /** Releases pooled upstream connections; called by the gateway's close(). */
  close?(): Promise<void>;
}

/**
 * RFC 4648 base64 (standard alphabet, `=` padding) of bytes, injected like the key store's digest: on
 * Node, Buffer's native encoder; elsewhere core's own (`encodeBase64`).
 */
export type Base64Encoder = (bytes: Uint8Array) => string;

export interface ApiKeyIdentity {
  /** A name for logs and metrics; never the key itself. */
  name: string;
  /** Optional allow-list of catalogue or virtual ids. */
  models?: readonly string[];
  /** Requests, tokens per minute and concurrent requests of this key (config `keys[].limits`); absent: none. */
  limits?: KeyLimits;
  /** What this key may spend per calendar period (config `keys[].budget`); absent: no budget. */
  budget?: KeyBudget;
  /** Opens the operator endpoints on the main port (config `keys[].operator`). */
  operator?: boolean;
}

export interface KeyStore {
  /**
   * The identity of a bearer token, or undefined. Implementations compare hashes in constant time.
   * Synchronous where the answer is at hand (a known key, a synchronous digest), so that the usual
   * request waits for no promise.
   */
  verify(token: string): ApiKeyIdentity | undefined | Promise<ApiKeyIdentity | undefined>;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export interface IdSource {
  /** `length` random lower-case hex characters. */
  hex(length: number): string;
  /** `length` random decimal digits (the first is never 0). */
  digits(length: number): string;
}

export interface RequestRecord {
  requestId: string;
  operationId: string;
  status: number;
  model?: string;
  endpoint?: string;
  inputTokens?: number;
  outputTokens?: number;
  /** A `-pe` image request's prompt rewrite: tokens of another model (the text model), counted under its id. */
  promptEnhancement?: { model: string; inputTokens: number; outputTokens: number };
  /** The API key's name (never the key); absent before authentication. */
  keyName?: string;
  /** What it cost at the configured prices, per priced model (absent: nothing priced). */
  cost?: readonly CostPart[];
}

/** A finished request with its timings, for sinks that keep latency and rejection metrics. */
export interface RequestObservation extends RequestRecord {
  /** From dispatch to the last byte (a stream's end). */
  durationMs: number;
  /** From dispatch to the first body byte: the whole answer for JSON, the first event for a stream. */
  firstByteMs: number;
  streamed: boolean;
  /** The error code answered (`invalid_api_key`, `overloaded`...), for rejections by reason. */
  errorCode?: string;
}

export interface MetricsSink {
  /** Called once per finished request (after a stream ends), unless the sink has `observe`. */
  record(record: RequestRecord): void;
  /** A request of a limited key was decided by local counting because the shared limit store did not answer in time. */
  limiterFallback?(): void;
  /** The shared limit store's connection (Redis) came up or went away. */
  redisConnected?(connected: boolean): void;
  /** A client connection opened / closed on the main port (the open-connections gauge). */
  connectionOpened?(): void;
  connectionClosed?(): void;
  /** Keys were reloaded: their names become metric labels like the names configured at start. */
  nameKeys?(names: Iterable<string>): void;
  /** A client connection was refused at `limits.max_connections`. */
  connectionRefused?(): void;
  /** The process ran out of file descriptors (`EMFILE`, or `ENFILE` for the system): once per episode. */
  descriptorsExhausted?(code: string): void;
  /** Called instead of `record` when present: the same facts plus timings and the error code. */
  observe?(observation: RequestObservation): void;
  /** A stream started / ended (the active-streams gauge). */
  streamStarted?(): void;
  streamEnded?(): void;
  /**
   * An upstream attempt failed: an UpstreamError kind (refused, timeout, reset...) or `http_5xx`, with
   * the upstream's configured name (absent when no endpoint was picked) and the catalogue model.
   */
  upstreamError?(kind: string, where?: { upstream?: string; model?: string }): void;
  /** The upstream port retried an attempt on another endpoint. */
  retry?(): void;
  /** A request for a virtual model left catalogue model `from` for `to`, for `reason`. */
  fallback?(from: string, to: string, reason: FallbackReason): void;
  /** An upstream endpoint was ejected from its pool. */
  endpointEjected?(): void;
  /** Where the sink reads the upstreams' health when it renders (the gateway hands it the port's). */
  watchUpstreams?(health: () => readonly UpstreamHealth[]): void;
  /** The metrics in Prometheus text format, for GET /metrics; absent when the sink keeps none. */
  exposition?(): string;
}
