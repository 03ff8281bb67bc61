import { admissionGateFor } from '../admission/admission-gate-for.js';
import { errorBody } from '../errors/error-envelopes.js';
import type { ErrorEnvelope } from '../errors/error-envelopes.js';
import { GatewayError } from '../errors/gateway-error.js';
import { failureFacts } from '../errors/failure-facts.js';
import { toGatewayError } from '../errors/to-gateway-error.js';
import { limitRequest, type LimitTicket } from '../limits/limit-request.js';
import type { ApiKeyIdentity, MetricsSink, RequestObservation, RequestRecord } from '../handlers/ports.js';
import { bearerToken } from './bearer-token.js';
import { corsResponseHeaders } from './cors.js';
import { observeUpstream, type UpstreamFacts } from './observe-upstream.js';
import type { GatewayDeps, HandlerInput, HandlerResult, JsonResult, ResultMeta, RouteDefinition } from './handler-types.js';

// application/json with optional parameters (charset=utf-8); nothing else is JSON to this gateway.
const jsonContentType = /^application\/json[ \t]*(?:;.*)?$/i;

/** The error envelope of a path, for failures detected before a route is known (compat under /compat/). */
export function envelopeForPath(path: string): ErrorEnvelope {
  return path.startsWith('/compat/') ? 'compat' : 'native';
}

/** Any thrown value as the error response a client sees, in the given envelope; a 5xx says why in `meta.failure`. */
export function errorResult(error: unknown, envelope: ErrorEnvelope, requestId: string): JsonResult {
  const gatewayError = toGatewayError(error);
  return {
    kind: 'json',
    status: gatewayError.status,
    headers: { ...gatewayError.headers, 'content-type': 'application/json', 'x-request-id': requestId },
    body: errorBody(gatewayError, envelope, requestId),
    meta: gatewayError.status >= 500 ? { failure: failureFacts(error) } : {},
  };
}

/** A failed request's meta: what its upstream calls showed, beside the failure itself. */
function withUpstreamFacts(meta: ResultMeta, facts: UpstreamFacts): ResultMeta {
  if (meta.failure === undefined) return meta;
  const withFacts: ResultMeta = { ...meta };
  if (facts.model !== undefined) withFacts.model = facts.model;
  if (facts.upstream !== undefined) withFacts.endpoint = facts.upstream;
  if (facts.attempts !== undefined) withFacts.attempts = facts.attempts;
  return withFacts;
}

async function authenticate(route: RouteDefinition, input: HandlerInput, deps: GatewayDeps): Promise<ApiKeyIdentity | undefined> {
  if (!route.auth) return undefined;
  const token = bearerToken(input.header('authorization'));
  const identity = token === undefined ? undefined : await deps.keys.verify(token);
  if (identity === undefined) throw GatewayError.unauthorized();
  return identity;
}

type Timing = Pick<RequestObservation, 'durationMs' | 'firstByteMs' | 'streamed' | 'errorCode'>;

function recordOnce(metrics: MetricsSink, base: Omit<RequestRecord, 'status'>): (status: number, meta: ResultMeta, timing: Timing) => void {
  let recorded = false;
  return (status, meta, timing) => {
    if (recorded) return;
    recorded = true;
    const record: RequestRecord = { ...base, status };
    if (meta.model !== undefined) record.model = meta.model;
    if (meta.endpoint !== undefined) record.endpoint = meta.endpoint;
    if (meta.keyName !== undefined) record.keyName = meta.keyName;
    if (meta.inputTokens !== undefined) record.inputTokens = meta.inputTokens;
    if (meta.outputTokens !== undefined) record.outputTokens = meta.outputTokens;
    if (meta.promptEnhancement !== undefined) record.promptEnhancement = meta.promptEnhancement;
    try {
      if (metrics.observe !== undefined) metrics.observe({ ...record, ...timing });
      else metrics.record(record);
    } catch {
      // A failing metrics sink must not turn a served request into an error or reject dispatch.
    }
  };
}

/**
 * Passes a stream through unchanged, pull for pull, and calls `onEnd` once when it closes, fails or
 * is cancelled by the client. `cancel` reaches the handler's stream, which aborts the upstream call.
 */
function observeStream(stream: ReadableStream<Uint8Array>, onEnd: (cancelled: boolean) => void, onFirstChunk: () => void = () => undefined): ReadableStream<Uint8Array> {
  let first = true;
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const chunk = await reader.read();
          if (chunk.done) {
            controller.close();
            onEnd(false);
          } else {
            if (first) {
              first = false;
              onFirstChunk();
            }
            controller.enqueue(chunk.value);
          }
        } catch (error) {
          onEnd(false);
          controller.error(error);
        }
      },
      async cancel(reason) {
        try {
          await reader.cancel(reason);
        } finally {
          onEnd(true);
        }
      },
    },
    { highWaterMark: 0 },
  );
}

// A failing metrics sink must not turn a served request into an error.
function notify(callback: (() => void) | undefined): void {
  try {
    callback?.();
  } catch {
    // ignored: see above
  }
}

// DESIGN.md: a client that goes away is logged as 499, a status never sent.
const clientClosedRequest = 499;

const nothingToRelease = (): void => undefined;

/**
 * A slot of the admission cap (`limits.max_concurrent_requests`), or undefined when the gateway is
 * full. Only routes that take a body (the model-calling ones) are capped: health, catalogue and
 * pricing stay answering, so an overloaded gateway can still be probed and observed.
 */
function admit(route: RouteDefinition, deps: GatewayDeps): (() => void) | undefined {
  return route.bodyLimit === 'none' ? nothingToRelease : admissionGateFor(deps.config).tryAcquire();
}

/**
 * Runs a matched route: the admission cap (503 with Retry-After when full), authentication (401 with
 * `WWW-Authenticate: Bearer` before anything else),
 * the JSON content type for routes with a body (415), then the handler. Never rejects: any failure
 * becomes the route's error envelope. Every result carries `x-request-id` and a content type, and
 * metrics are recorded once per request: at once for JSON, when the stream ends for streams.
 */
export async function dispatch(route: RouteDefinition, input: HandlerInput, deps: GatewayDeps): Promise<HandlerResult> {
  let result: HandlerResult;
  let identity: ApiKeyIdentity | undefined;
  let errorCode: string | undefined;
  const startedAt = deps.clock.now();
  const releaseSlot = admit(route, deps);
  // The key's limits (issue 11): admitted requests carry the rate-limit headers and settle their tokens at the end.
  let ticket: LimitTicket | undefined;
  const upstreamFacts: UpstreamFacts = {};
  try {
    // DESIGN.md: over capacity is 503 with Retry-After, answered before any work (even auth) is done.
    if (releaseSlot === undefined) throw GatewayError.overloaded();
    identity = await authenticate(route, input, deps);
    if (route.bodyLimit !== 'none') {
      const contentType = input.header('content-type');
      if (contentType === undefined || !jsonContentType.test(contentType.trim())) throw GatewayError.unsupportedMediaType(contentType);
    }
    // Awaited only when the store has to wait: the usual decision is synchronous and allocates no promise.
    const limited = limitRequest(route, input, deps, identity);
    ticket = limited instanceof Promise ? await limited : limited;
    result = await route.handler(input, { ...deps, upstream: observeUpstream(deps.upstream, upstreamFacts), identity });
  } catch (error) {
    errorCode = toGatewayError(error).code;
    const failed = errorResult(error, route.envelope, input.requestId);
    result = { ...failed, meta: withUpstreamFacts(failed.meta, upstreamFacts) };
  }
  const headers: Record<string, string> = { ...result.headers, ...ticket?.headers, ...corsResponseHeaders(deps.config, input.header('origin')), 'x-request-id': input.requestId };
  headers['content-type'] ??= result.kind === 'stream' ? 'text/event-stream; charset=utf-8' : 'application/json';
  if (identity !== undefined) result.meta.keyName = identity.name;

  const record = recordOnce(deps.metrics, { requestId: input.requestId, operationId: route.operationId });
  if (result.kind === 'json') {
    releaseSlot?.();
    ticket?.settle(result.meta);
    const elapsed = deps.clock.now() - startedAt;
    record(result.status, result.meta, { durationMs: elapsed, firstByteMs: elapsed, streamed: false, ...(errorCode === undefined ? {} : { errorCode }) });
    return { ...result, headers };
  }
  notify(deps.metrics.streamStarted?.bind(deps.metrics));
  let firstByteMs: number | undefined;
  const { status, meta } = result;
  // meta is read when the stream ends: the handler fills in model and tokens as the stream runs.
  const stream = ticket === undefined ? result.stream : ticket.observe(result.stream, result.meta);
  return { ...result, headers, stream: observeStream(stream, (cancelled) => {
    // A stream holds its admission slot until it closes: open streams are what the cap bounds.
    releaseSlot?.();
    const durationMs = deps.clock.now() - startedAt;
    notify(deps.metrics.streamEnded?.bind(deps.metrics));
    record(cancelled ? clientClosedRequest : status, meta, { durationMs, firstByteMs: firstByteMs ?? durationMs, streamed: true });
  }, () => {
    firstByteMs = deps.clock.now() - startedAt;
  }) };
}
