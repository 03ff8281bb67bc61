import type { AdmissionGate } from '../admission/admission-gate.js';
import type { RetryBudget } from '../admission/retry-budget.js';
import { fallbackReasonOf, type FallbackChain } from '../catalogue/fallback-chain.js';
import { errorBody, errorStatus } from '../errors/error-envelopes.js';
export { envelopeForPath } from '../errors/error-envelopes.js';
import type { ErrorEnvelope } from '../errors/error-envelopes.js';
import { GatewayError } from '../errors/gateway-error.js';
import { failureFacts } from '../errors/failure-facts.js';
import { toGatewayError } from '../errors/to-gateway-error.js';
import { limitRequest, type LimitTicket } from '../limits/limit-request.js';
import { budgetRequest, type BudgetTicket } from '../budgets/budget-request.js';
import type { BudgetStore } from '../budgets/budget-store.js';
import { formatCost } from '../config/request-cost.js';
import type { LimitStore } from '../limits/limit-store.js';
import type { ApiKeyIdentity, MetricsSink } from '../ports/ports.js';
import { authenticate, checkBodyHeaders } from './check-before-body.js';
import { addCorsHeaders } from './cors.js';
import type {
  EventStreamResult,
  HandlerInput,
  HandlerResult,
  JsonResult,
  ResultMeta,
  RouteDefinition,
  StreamResult,
} from '../ports/handler-types.js';
import { RequestContext, type ContextSource } from './request-context.js';
import { RequestFinaliser } from './request-finaliser.js';
import type { StatusBoard } from '../status/status-board.js';

/** What dispatch runs a request against: the gateway's ports, admission cap and limit store. */
export interface DispatchTarget extends ContextSource {
  readonly admission: AdmissionGate;
  readonly status: StatusBoard;
  readonly limiter: LimitStore;
  readonly budgets: BudgetStore;
  readonly fallbacks: RetryBudget;
}

/** Any thrown value as the error response a client sees, in the given envelope; a 5xx says why in `meta.failure`. */
export function errorResult(
  error: unknown,
  envelope: ErrorEnvelope,
  requestId: string,
): JsonResult & { body: string } {
  const gatewayError = toGatewayError(error);
  // Object.assign, not a spread then keys: see buildChatUpstreamRequest (a hidden class per answer).
  const headers = Object.assign({}, gatewayError.headers, {
    'content-type': 'application/json',
    'x-request-id': requestId,
  });
  // The Anthropic SDK reads the request id from `request-id` (its errors' requestID).
  if (envelope === 'anthropic') headers['request-id'] = requestId;
  return {
    kind: 'json',
    status: errorStatus(gatewayError, envelope),
    headers,
    body: errorBody(gatewayError, envelope, requestId),
    meta: gatewayError.status >= 500 ? { failure: failureFacts(error) } : {},
  };
}

/** A failed request's meta: what its upstream calls showed, beside the failure itself. */
function addUpstreamFacts(result: JsonResult, context: RequestContext): void {
  const { meta } = result;
  if (meta.failure === undefined) return;
  if (context.model !== undefined) meta.model = context.model;
  if (context.endpoint !== undefined) meta.endpoint = context.endpoint;
  if (context.attempts !== undefined) meta.attempts = context.attempts;
}

/**
 * The route's handler again for the next model of a virtual model's list, while an attempt fails in
 * one of the ways its route moves on from: each attempt is the whole request for its model, and
 * nothing has reached the client yet (a stream is answered once its first event is in). A request
 * that falls back holds one slot of the gateway's fallback budget until its last attempt ends.
 */
async function nextModels(
  gateway: DispatchTarget,
  route: RouteDefinition,
  input: HandlerInput,
  chain: FallbackChain,
  context: RequestContext,
  firstFailure: unknown,
): Promise<JsonResult | EventStreamResult> {
  let holdsSlot = false;
  try {
    for (let failure = firstFailure; ;) {
      const reason = fallbackReasonOf(failure);
      if (reason === undefined || input.signal.aborted || !chain.canSkip(reason)) throw failure;
      if (!holdsSlot) holdsSlot = gateway.fallbacks.tryAcquire(gateway.admission.inUse);
      if (!holdsSlot) throw failure;
      chain.skip(reason);
      try {
        return await route.handler(input, context);
      } catch (error) {
        failure = error;
      }
    }
  } finally {
    if (holdsSlot) gateway.fallbacks.release();
  }
}

/** A request that left models of its virtual model: the header, the log line's list and the metric. */
function noteFallbacks(
  result: JsonResult | EventStreamResult,
  chain: FallbackChain,
  metrics: MetricsSink,
): void {
  const { left } = chain;
  if (left.length === 0) return;
  result.meta.fallbacks = left;
  result.headers['x-infergate-fallback'] = left
    .map((step) => `${step.model}=${step.reason}`)
    .join(', ');
  left.forEach((step, index) =>
    metrics.fallback?.(step.model, left[index + 1]?.model ?? chain.model, step.reason),
  );
}

/**
 * Runs a matched route: the admission cap (503 with Retry-After; only routes with a body are capped, so
 * health, catalogue and pricing keep answering), authentication (401), the JSON content type (415), the
 * key's limits, then the handler. Never rejects: a failure becomes the route's error envelope.
 * `checked` is checkBeforeBody's result when the app called it before reading the body: the key and the
 * content type are then not checked again.
 */
export async function dispatch(
  gateway: DispatchTarget,
  route: RouteDefinition,
  input: HandlerInput,
  checked?: ApiKeyIdentity,
): Promise<HandlerResult> {
  const { deps } = gateway;
  const startedAt = deps.clock.now();
  const capped = route.bodyLimit !== 'none';
  const admitted = !capped || gateway.admission.tryAcquire();
  const context = new RequestContext(gateway);
  // The key's limits: admitted requests carry the rate-limit headers and settle their tokens at the end.
  let ticket: LimitTicket | undefined;
  let budget: BudgetTicket | undefined;
  let errorCode: string | undefined;
  let result: JsonResult | EventStreamResult;
  try {
    // docs/design.md: over capacity is 503 with Retry-After, answered before any work (even auth) is done.
    if (!admitted) throw GatewayError.overloaded();
    if (checked === undefined) {
      const identity = authenticate(route, input.header, deps);
      context.identity = identity instanceof Promise ? await identity : identity;
      checkBodyHeaders(route, input.header);
    } else context.identity = checked;
    // The budget before the rate limits: a spent budget is the refusal that lasts, and says until when.
    const budgeted = budgetRequest(
      route,
      input,
      deps.config,
      gateway.budgets,
      context.identity,
      deps.clock,
    );
    budget = budgeted instanceof Promise ? await budgeted : budgeted;
    // Awaited only when the store has to wait: the usual decision is synchronous and allocates no promise.
    const limited = limitRequest(route, input, deps.config, gateway.limiter, context.identity);
    ticket = limited instanceof Promise ? await limited : limited;
    result = await route.handler(input, context);
  } catch (error) {
    try {
      if (context.fallback === undefined) throw error;
      result = await nextModels(gateway, route, input, context.fallback, context, error);
    } catch (final) {
      errorCode = toGatewayError(final).code;
      const failed = errorResult(final, route.envelope, input.requestId);
      addUpstreamFacts(failed, context);
      result = failed;
    }
  }
  const { headers } = result;
  if (context.fallback !== undefined) noteFallbacks(result, context.fallback, deps.metrics);
  if (result.status < 400 && result.meta.model !== undefined)
    headers['x-infergate-model'] = result.meta.model;
  if (ticket !== undefined) ticket.addHeaders(headers);
  addCorsHeaders(headers, deps.config, input.header('origin'));
  headers['x-request-id'] = input.requestId;
  // The Anthropic SDK reads the request id from `request-id` (its errors' requestID).
  if (route.envelope === 'anthropic') headers['request-id'] = input.requestId;
  headers['content-type'] ??=
    result.kind === 'stream' ? 'text/event-stream; charset=utf-8' : 'application/json';
  if (context.identity !== undefined) result.meta.keyName = context.identity.name;

  const finaliser = new RequestFinaliser(
    gateway,
    input.requestId,
    route.operationId,
    startedAt,
    capped && admitted,
    ticket,
    budget,
  );
  if (result.kind === 'json') {
    finaliser.finishJson(result.status, result.meta, errorCode);
    // What it cost is known once it is over: for a JSON answer, before its headers are sent.
    const cost = result.meta.cost === undefined ? undefined : formatCost(result.meta.cost);
    if (cost !== undefined) headers['x-infergate-cost'] = cost;
    // Settled above: what is left already takes this answer's cost.
    budget?.addHeaders(headers);
    return result;
  }
  // A stream's headers leave before its cost is known: what is left takes its reservation.
  budget?.addHeaders(headers);
  finaliser.open(result);
  return new DispatchedStream(result.status, headers, result.meta, finaliser);
}

/**
 * A stream answer as dispatch hands it to an app. A class, not an object literal with a `stream`
 * getter: V8 gives each such literal a hidden class of its own that holds the getter, and with it the
 * getter's closure (the finaliser, the events, the upstream reader), so every stream's objects
 * outlived scavenges until the next full collection.
 */
class DispatchedStream implements StreamResult {
  readonly kind = 'stream';

  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly meta: ResultMeta,
    /** The opened finaliser is the StreamBody (see RequestFinaliser.open). */
    readonly body: RequestFinaliser,
  ) {}

  get stream(): ReadableStream<Uint8Array> {
    return this.body.readableStream();
  }
}
