import { isUpstreamError, RetryBudget } from '@infergate/core';
import type {
  MetricsSink,
  RetryConfig,
  UpstreamCall,
  UpstreamConfig,
  UpstreamPort,
  UpstreamResponse,
  UpstreamTarget,
} from '@infergate/core';
import { abortableSleep } from './abortable-sleep.js';
import { backoffDelay } from './backoff-delay.js';
import { EndpointPool } from './endpoint-pool.js';
import type { Endpoint } from './endpoint-pool.js';
import { sendAttempt } from './send-attempt.js';
import type { AttemptTimeouts } from './send-attempt.js';
import type { Transport } from './transport.js';
import { encodeJsonBody } from './encode-json-body.js';
import { upstreamFailure, withAttemptFacts } from './upstream-failure.js';
import type { UpstreamTracer } from './upstream-tracer.js';

export interface UpstreamPortOptions {
  upstreams: readonly UpstreamConfig[];
  /** docs/design.md's upstream limits; the inbound ones of TimeoutsConfig are not read here. */
  timeouts: AttemptTimeouts;
  retries: RetryConfig;
  /** The transport of each upstream; called once per upstream when the port is created. */
  transportFor(upstream: UpstreamConfig): Transport;
  /** Largest non-stream (or error) body read, in bytes; default 64 MiB (docs/design.md). */
  maxResponseBytes?: number;
  /** Largest SSE line or event data, in bytes; default 16 MiB. */
  maxEventBytes?: number;
  now?: () => number;
  random?: () => number;
  /** Outlier ejection tuning; docs/design.md's 5 failures, 30 s x n, cap 300 s by default. */
  ejection?: { failures?: number; baseMs?: number; maxMs?: number };
  /** Told of failed attempts by kind, retries and ejections (the gateway's metrics sink). */
  metrics?: Pick<MetricsSink, 'upstreamError' | 'retry' | 'endpointEjected'>;
  /** Traces each attempt and adds its `traceparent` to the upstream request; none by default. */
  tracer?: UpstreamTracer;
}

const defaultMaxResponseBytes = 64 * 1024 * 1024;
const defaultMaxEventBytes = 16 * 1024 * 1024;

/**
 * The UpstreamPort core calls: picks an endpoint of the model's pool, sends with the configured
 * limits, retries only before `send()` resolves, and hands back JSON or a live SSE event iterator.
 * Throws at creation when two upstreams serve one model with different protocols.
 */
export function createUpstreamPort(options: UpstreamPortOptions): UpstreamPort {
  const random = options.random ?? Math.random;
  const pool = new EndpointPool(options.upstreams, {
    now: options.now ?? Date.now,
    random,
    failuresToEject: options.ejection?.failures,
    baseEjectionMs: options.ejection?.baseMs,
    maxEjectionMs: options.ejection?.maxMs,
    onEject: () => options.metrics?.endpointEjected?.(),
  });
  const transports = new Map<UpstreamConfig, Transport>(
    options.upstreams.map((upstream) => [upstream, options.transportFor(upstream)]),
  );
  const budget = new RetryBudget(options.retries);
  const maxResponseBytes = options.maxResponseBytes ?? defaultMaxResponseBytes;
  const maxEventBytes = options.maxEventBytes ?? defaultMaxEventBytes;
  const targets = new Map<string, UpstreamTarget>();
  for (const upstream of options.upstreams) {
    for (const [modelId, model] of Object.entries(upstream.models)) {
      const existing = targets.get(modelId);
      if (existing === undefined)
        targets.set(modelId, {
          protocol: upstream.protocol,
          model,
          ...(upstream.tokenize === false ? { tokenize: false } : {}),
        });
      else if (existing.protocol !== upstream.protocol) {
        throw new Error(
          `Upstream "${upstream.name}" serves model "${modelId}" with protocol ${upstream.protocol}, but an earlier upstream serves it with ${existing.protocol}.`,
        );
      }
    }
  }
  // Requests sent and not finished (streams until their iteration ends): the retry budget's base.
  let active = 0;

  async function send(call: UpstreamCall): Promise<UpstreamResponse> {
    if (call.signal.aborted) throw upstreamFailure('aborted', 'connect');
    if (pool.endpointsOf(call.modelId).length === 0)
      throw upstreamFailure('unavailable', 'connect');
    const body = encodeJsonBody(call.body);
    active += 1;
    let callOpen = true;
    const endCall = () => {
      if (callOpen) {
        callOpen = false;
        active -= 1;
      }
    };
    // Made for a second attempt only: the first has nothing to avoid.
    let tried: Set<Endpoint> | undefined;
    let previous: Endpoint | undefined;
    // The upstream of the current attempt (and, once it is over, of the last): for metrics and logs.
    let lastUpstream: string | undefined;
    let attempts = 0;
    const countError = (kind: string): void =>
      options.metrics?.upstreamError?.(kind, {
        ...(lastUpstream === undefined ? {} : { upstream: lastUpstream }),
        model: call.modelId,
      });
    // A failure a stream's reader is handed; one the client or the consumer caused (aborted) is not the upstream's.
    const countStreamError = (error: unknown): void => {
      if (isUpstreamError(error) && error.kind !== 'aborted') countError(error.kind);
    };
    let retriesUsed = 0;
    let nextHasSlot = false;
    let currentHasSlot = false;
    const mayRetry = (): boolean => {
      if (retriesUsed >= options.retries.attempts || call.signal.aborted) return false;
      if (!budget.tryAcquire(active)) return false;
      retriesUsed += 1;
      nextHasSlot = true;
      options.metrics?.retry?.();
      return true;
    };
    // Asked only for a 502 or 503: one that is retried is an upstream error here, one that is not is counted below.
    const retryStatus = (): boolean => {
      const retrying = mayRetry();
      if (retrying) countError('http_5xx');
      return retrying;
    };
    const releaseSlots = () => {
      if (currentHasSlot) budget.release();
      currentHasSlot = false;
    };
    let streamReturned = false;
    try {
      for (;;) {
        currentHasSlot = nextHasSlot;
        nextHasSlot = false;
        if (previous !== undefined) (tried ??= new Set()).add(previous);
        const endpoint = pool.pick(call.modelId, tried);
        if (endpoint === undefined)
          throw withAttemptFacts(upstreamFailure('unavailable', 'connect'), lastUpstream, attempts);
        lastUpstream = endpoint.upstream.name;
        previous = endpoint;
        // Counted apart from `tried`: a pool of one endpoint retries that endpoint.
        attempts += 1;
        const span = options.tracer?.startAttempt({
          modelId: call.modelId,
          path: call.path,
          upstream: endpoint.upstream.name,
          attempt: attempts,
          stream: call.stream,
        });
        let result;
        try {
          result = await sendAttempt({
            call,
            endpoint,
            pool,
            transport: transports.get(endpoint.upstream) as Transport,
            timeouts: options.timeouts,
            headers:
              span === undefined
                ? requestHeaders(endpoint.upstream, call)
                : { ...requestHeaders(endpoint.upstream, call), ...span.headers },
            body,
            maxResponseBytes,
            maxEventBytes,
            retryStatus,
            onStreamEnd: () => {
              span?.end({ status: 200 });
              endCall();
            },
            onStreamError: countStreamError,
          });
        } catch (error) {
          const kind = isUpstreamError(error) ? error.kind : 'protocol';
          if (kind !== 'aborted') countError(kind);
          span?.end({ error: kind });
          releaseSlots();
          if (isUpstreamError(error) && error.retryable && mayRetry()) {
            await abortableSleep(backoffDelay(retriesUsed, random), call.signal);
            continue;
          }
          throw isUpstreamError(error)
            ? withAttemptFacts(error, endpoint.upstream.name, attempts)
            : error;
        }
        releaseSlots();
        if (result.retry) {
          span?.end({ error: 'http_5xx' });
          await abortableSleep(backoffDelay(retriesUsed, random), call.signal);
          continue;
        }
        // The attempt's own object, made for this call: completed here rather than copied.
        const response = result.response;
        response.attempts = attempts;
        if (response.status >= 500) countError('http_5xx');
        streamReturned = response.kind === 'stream';
        if (response.kind === 'json') span?.end({ status: response.status });
        // A stream's span ends with the stream (onStreamEnd); its mid-stream failures are counted as they happen (onStreamError).
        return response;
      }
    } finally {
      releaseSlots();
      if (nextHasSlot) budget.release();
      if (!streamReturned) endCall();
    }
  }

  return {
    target: (modelId) => targets.get(modelId),
    send,
    // No network call: traffic already tells us reachability.
    health: () => pool.health(),
    // Each transport once, however many upstreams share it (apps give one network transport to all).
    close: async () => {
      await Promise.all([...new Set(transports.values())].map((transport) => transport.close?.()));
    },
  };
}

function requestHeaders(upstream: UpstreamConfig, call: UpstreamCall): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: call.stream ? 'text/event-stream' : 'application/json',
    'x-request-id': call.requestId,
  };
  if (upstream.apiKey !== undefined && upstream.apiKey !== '')
    headers.authorization = `Bearer ${upstream.apiKey}`;
  return headers;
}
