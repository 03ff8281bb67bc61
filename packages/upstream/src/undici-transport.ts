import { Readable } from 'node:stream';
import { Pool } from 'undici';
import type { Dispatcher } from 'undici';
import { classifyTransportError } from './classify-transport-error.js';
import { jsonBodySlices } from './encode-json-body.js';
import { pushReadable } from './push-readable.js';
import type { BodySink, Transport, TransportRequest, TransportResponse } from './transport.js';

export interface UndiciTransportOptions {
  /** Connections per upstream origin; more requests queue (docs/design.md: 256). */
  connections?: number;
  /** How long an idle keep-alive connection is kept, in ms (undici's default: 4 s). */
  keepAliveTimeoutMs?: number;
}

interface SplitOrigin {
  origin: string;
  basePath: string;
}

function splitOrigin(url: string): SplitOrigin {
  const parsed = new URL(url);
  return { origin: parsed.origin, basePath: parsed.pathname.replace(/\/+$/, '') };
}

function toRecord(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const record: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    record[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return record;
}

/** An answer whose body a reader may take pushed (a class, so that no closure is made per answer). */
class UndiciResponse implements TransportResponse {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: Dispatcher.ResponseData['body'],
  ) {}

  pushBody(sink: BodySink): () => void {
    return pushReadable(this.body, sink);
  }
}

/**
 * A transport over undici for Node: one keep-alive Pool per upstream origin, created on first use with
 * the request's connect limit. undici's own headers and body timeouts are off, the port timing the
 * first byte and the gaps between events instead: undici's coarse timer list kept a timeout object per
 * request alive long enough to be promoted. No redirect is followed (`request` follows none without the
 * redirect interceptor).
 */
export function createUndiciTransport(
  options: UndiciTransportOptions = {},
): Transport & { close(): Promise<void> } {
  const pools = new Map<string, Pool>();
  // Upstream URLs come from the configuration, so this stays as small as it: no URL parse per request.
  const splits = new Map<string, SplitOrigin>();
  let closed = false;

  function poolFor(origin: string, connectTimeoutMs: number): Pool {
    let pool = pools.get(origin);
    if (pool === undefined) {
      pool = new Pool(origin, {
        connections: options.connections ?? 256,
        connectTimeout: connectTimeoutMs,
        keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
        headersTimeout: 0,
        bodyTimeout: 0,
        pipelining: 1,
      });
      pools.set(origin, pool);
    }
    return pool;
  }

  return {
    async request(request: TransportRequest): Promise<TransportResponse> {
      if (closed)
        throw classifyTransportError(
          Object.assign(new Error('closed'), { code: 'UND_ERR_CLOSED' }),
          'headers',
        );
      let split = splits.get(request.origin);
      if (split === undefined) {
        split = splitOrigin(request.origin);
        splits.set(request.origin, split);
      }
      const { origin, basePath } = split;
      const pool = poolFor(origin, request.connectTimeoutMs);
      // A body with long strings is written a slice at a time, with its length declared up front.
      const { body } = request;
      const whole = typeof body === 'string' || body instanceof Uint8Array;
      let data: Dispatcher.ResponseData;
      try {
        data = await pool.request({
          path: `${basePath}/${request.path.replace(/^\/+/, '')}`,
          method: request.method,
          headers: whole
            ? request.headers
            : Object.assign({}, request.headers, { 'content-length': String(body.byteLength) }),
          body: whole ? body : Readable.from(jsonBodySlices(body), { objectMode: true }),
          // undici reads only `aborted`, `reason` and the listener methods of what it is given.
          signal: request.signal as AbortSignal,
        });
      } catch (error) {
        throw classifyTransportError(error, 'headers');
      }
      return new UndiciResponse(data.statusCode, toRecord(data.headers), data.body);
    },
    async close() {
      closed = true;
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(all.map((pool) => pool.destroy()));
    },
  };
}
