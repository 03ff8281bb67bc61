/**
 * In-memory ports for handler unit tests: an upstream that records every call and answers with canned
 * bodies, a fixed clock and counting ids. Used by tests only (nothing in index.ts exports it).
 */
import { resolveGatewayConfig } from '../config/resolve-gateway-config.js';
import { createGateway } from '../gateway/create-gateway.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import type { HandlerContext, HandlerInput } from '../ports/handler-types.js';
import type {
  ApiKeyIdentity,
  Clock,
  IdSource,
  KeyStore,
  MetricsSink,
  RequestRecord,
  UpstreamCall,
  UpstreamPort,
  UpstreamResponse,
  UpstreamTarget,
} from '../ports/ports.js';

/** A canned upstream answer: status 200 and no headers unless given. */
export interface CannedReply {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

export type UpstreamResponder = (
  call: UpstreamCall,
  index: number,
) => CannedReply | UpstreamResponse | Promise<CannedReply | UpstreamResponse>;

export interface FakeUpstream extends UpstreamPort {
  /** Every call sent, in order. */
  readonly calls: UpstreamCall[];
}

function isUpstreamResponse(reply: CannedReply | UpstreamResponse): reply is UpstreamResponse {
  return 'kind' in reply;
}

/**
 * An upstream serving `targets` (catalogue id -> protocol and upstream model name). `respond` gets each
 * call and its index; a plain `{status, body}` becomes a JSON response from endpoint `fake-1`.
 */
export function fakeUpstream(
  targets: Readonly<Record<string, UpstreamTarget>>,
  respond: UpstreamResponder,
): FakeUpstream {
  const calls: UpstreamCall[] = [];
  return {
    calls,
    target: (modelId) => targets[modelId],
    async send(call) {
      calls.push(call);
      const reply = await respond(call, calls.length - 1);
      if (isUpstreamResponse(reply)) return reply;
      return {
        kind: 'json',
        status: reply.status ?? 200,
        headers: reply.headers ?? {},
        body: reply.body,
        endpoint: 'fake-1',
      };
    },
  };
}

export function fixedClock(epochMs: number): Clock {
  return { now: () => epochMs };
}

/** Ids 1, 2, 3... zero-padded to the asked length, so a test can say which id a call got. */
export function countingIds(): IdSource {
  let next = 0;
  const take = (length: number, radix: number): string => {
    next += 1;
    return next.toString(radix).padStart(length, '0').slice(-length);
  };
  return {
    hex: (length) => take(length, 16),
    digits: (length) => `1${take(Math.max(0, length - 1), 10)}`.slice(0, length),
  };
}

export function recordingMetrics(): MetricsSink & { records: RequestRecord[] } {
  const records: RequestRecord[] = [];
  return { records, record: (record) => records.push(record) };
}

const noKeys: KeyStore = { verify: async () => undefined };

export interface TestContextOptions {
  upstream: UpstreamPort;
  identity?: ApiKeyIdentity;
  config?: GatewayConfig;
  clock?: Clock;
  ids?: IdSource;
}

/** A handler context over the default configuration (the spec's catalogue) and the given ports. */
export function testContext(options: TestContextOptions): HandlerContext {
  const config = options.config ?? resolveGatewayConfig(undefined, {});
  const ports = {
    upstream: options.upstream,
    keys: noKeys,
    clock: options.clock ?? fixedClock(1_767_225_600_000),
    ids: options.ids ?? countingIds(),
    metrics: recordingMetrics(),
  };
  const gateway = createGateway({ config, ports });
  return { ...gateway.deps, identity: options.identity, gateway };
}

export interface TestInputOptions {
  path?: string;
  requestId?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** A POST with a JSON body (a string is sent as it is, anything else serialized). */
export function jsonInput(body: unknown, options: TestInputOptions = {}): HandlerInput {
  const headers = options.headers ?? {};
  return {
    method: 'POST',
    path: options.path ?? '/',
    params: {},
    header: (name) => headers[name],
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: options.signal ?? new AbortController().signal,
    requestId: options.requestId ?? 'req-test-1',
  };
}
