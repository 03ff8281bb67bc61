import type { AbortSignalLike } from '@infergate/core';
import type { JsonRequestBody } from './encode-json-body.js';

/**
 * The seam between the port (endpoint choice, time limits, retries, SSE) and one way of moving bytes
 * (undici, fetch, or an in-process Web handler). A transport only sends and returns bytes: every time
 * limit past connect is the port's, enforced through `signal`.
 */
export interface TransportRequest {
  /** The upstream's configured URL (an origin, optionally with a base path). */
  origin: string;
  /** Path appended to the origin, e.g. `/v1/chat/completions`. */
  path: string;
  method: 'POST';
  /** Lower-case header names. */
  headers: Readonly<Record<string, string>>;
  /**
   * The serialized JSON: its text, bytes (backed by a plain ArrayBuffer, as fetch's BodyInit
   * requires), or text pieces when it carries long strings; `jsonBodyBytes` turns any into bytes.
   */
  body: JsonRequestBody;
  /** Aborting it must close the upstream connection at once, before or after the response started. */
  signal: AbortSignalLike;
  /** Connect limit in ms; transports that can tell connecting from waiting enforce it themselves. */
  connectTimeoutMs: number;
}

export interface TransportResponse {
  status: number;
  /** Lower-case header names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /**
   * The body as it arrives. Pulled, never buffered ahead beyond the transport's own high-water mark,
   * so a slow reader slows the upstream. Failures throw an UpstreamError with phase `body`.
   */
  body: AsyncIterable<Uint8Array>;
  /**
   * Optional, for a body read to its end at once (a JSON answer): hands `sink` the same bytes as
   * `body`, pushed as they arrive, where pulling would cost a promise and an iterator result per piece
   * (Node's streams push). Called at most once, instead of iterating `body`. The returned function
   * stops the delivery and discards the rest of the body; after it, `sink` hears nothing more.
   */
  pushBody?(sink: BodySink): () => void;
}

/** Where a transport pushes a body (TransportResponse.pushBody): pieces in order, then `end` or `fail`. */
export interface BodySink {
  piece(bytes: Uint8Array): void;
  end(): void;
  /** The transport's own error; the receiver classifies it. */
  fail(error: unknown): void;
}

export interface Transport {
  /**
   * Sends one request. Rejects with an UpstreamError (phase `connect` or `headers`) when no response
   * starts; resolves as soon as the status and headers are in, whatever the status.
   */
  request(request: TransportRequest): Promise<TransportResponse>;
  /** Releases pooled connections; requests after close fail. */
  close?(): Promise<void>;
}
