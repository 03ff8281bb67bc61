import { GatewayError } from '../errors/gateway-error.js';
import type { ApiKeyIdentity } from '../ports/ports.js';
import type { HandlerInput, ResultMeta, RouteDefinition } from '../ports/handler-types.js';
import type { GatewayConfig, KeyLimits } from '../config/gateway-config.js';
import { estimatePromptTokens, estimateRequestTokens } from './estimate-request-tokens.js';
import { formatResetDuration } from './format-reset-duration.js';
import { hasKeyLimits } from './key-limits.js';
import { LimitAdmission, type LimitTicket } from './limit-admission.js';
import type {
  LimitDecision,
  LimitLease,
  LimitRejection,
  LimitSnapshot,
  LimitStore,
} from './limit-store.js';
import { rateLimitHeaders } from './rate-limit-headers.js';

const describedLimit: Readonly<Record<LimitRejection, string>> = {
  requests: 'requests per minute',
  tokens: 'tokens per minute',
  concurrency: 'concurrent requests',
};

function rateLimited(
  rejectedBy: LimitRejection,
  snapshot: LimitSnapshot,
  retryMs: number,
  limit: number | undefined,
): GatewayError {
  const error = GatewayError.rateLimited(
    `Rate limit reached for ${describedLimit[rejectedBy]}${limit === undefined ? '' : ` (limit ${limit})`} on this API key. Try again in ${formatResetDuration(retryMs)}.`,
    Math.max(1, Math.ceil(retryMs / 1000)),
  );
  Object.assign(error.headers, rateLimitHeaders(snapshot));
  return error;
}

function reportedTokens(meta: ResultMeta): number | undefined {
  const enhancement = meta.promptEnhancement;
  if (
    meta.inputTokens === undefined &&
    meta.outputTokens === undefined &&
    enhancement === undefined
  )
    return undefined;
  return (
    (meta.inputTokens ?? 0) +
    (meta.outputTokens ?? 0) +
    (enhancement === undefined ? 0 : enhancement.inputTokens + enhancement.outputTokens)
  );
}

/**
 * The tokens a finished request is charged: the usage its result reports or, for a stream cut before
 * its usage arrived, the prompt estimate plus one token per event sent (the upstream sends one chunk
 * per token, so events sent is what the client received). Nothing reported by a JSON answer: 0, the
 * request used no model.
 */
export function usedTokens(
  ticket: LimitTicket,
  meta: ResultMeta,
  streamedEvents: number | undefined,
): number {
  return (
    reportedTokens(meta) ??
    (streamedEvents === undefined ? 0 : ticket.promptTokens + streamedEvents)
  );
}

/**
 * The ticket of a decision that is not a LimitAdmission (a store other than infergate's): the lease and
 * the headers of the decision, taken at once (the store may reuse the snapshot for its next decision).
 */
class WrappedTicket implements LimitTicket {
  private readonly headers: Record<string, string>;
  constructor(
    readonly lease: LimitLease,
    snapshot: LimitSnapshot,
    private readonly body: string | undefined,
    private readonly estimatedTokens: number,
  ) {
    this.headers = rateLimitHeaders(snapshot);
  }

  get promptTokens(): number {
    return Math.min(estimatePromptTokens(this.body), this.estimatedTokens);
  }

  addHeaders(headers: Record<string, string>): void {
    Object.assign(headers, this.headers);
  }
}

function ticketOrRefusal(
  decision: LimitDecision,
  limits: KeyLimits,
  body: string | undefined,
  estimatedTokens: number,
): LimitTicket {
  if (!decision.admitted) {
    const limit =
      decision.rejectedBy === 'requests'
        ? limits.requestsPerMinute
        : decision.rejectedBy === 'tokens'
          ? limits.tokensPerMinute
          : limits.concurrentRequests;
    throw rateLimited(decision.rejectedBy, decision.snapshot, decision.retryAfterMs, limit);
  }
  if (!LimitAdmission.isInstance(decision))
    return new WrappedTicket(decision.lease, decision.snapshot, body, estimatedTokens);
  // The store's admission is the ticket: it gets what only the gateway knows of the request.
  decision.body = body;
  decision.requestedTokens = estimatedTokens;
  return decision;
}

export type { LimitTicket } from './limit-admission.js';

function isThenable(
  value: LimitDecision | PromiseLike<LimitDecision>,
): value is PromiseLike<LimitDecision> {
  return typeof (value as Partial<PromiseLike<LimitDecision>>).then === 'function';
}

/**
 * The key limits of an authenticated request to a route with a body: undefined when the key has none, a
 * ticket when admitted, a 429 GatewayError (Retry-After and the rate-limit headers) when over a limit.
 * A store that fails admits the request: limits never turn into a 5xx. Synchronous when the store
 * decides at once; a promise only when the store waits.
 */
export function limitRequest(
  route: RouteDefinition,
  input: HandlerInput,
  config: GatewayConfig,
  store: LimitStore,
  identity: ApiKeyIdentity | undefined,
): LimitTicket | undefined | Promise<LimitTicket | undefined> {
  const limits = identity?.limits;
  if (route.bodyLimit === 'none' || identity === undefined || !hasKeyLimits(limits))
    return undefined;
  const estimate = estimateRequestTokens(
    route.contract.answers === 'json' ? route.contract.endpoint : undefined,
    input.body,
    config.limits.defaultMaxTokens,
  );
  // A request larger than the whole minute's allowance is admitted into an empty window rather than
  // refused forever; it is charged its real usage when it settles.
  const estimatedTokens =
    limits.tokensPerMinute === undefined ? estimate : Math.min(estimate, limits.tokensPerMinute);
  let decision;
  try {
    decision = store.acquire({ key: identity.name, limits, estimatedTokens });
  } catch {
    return undefined;
  }
  const body = input.body;
  // A promise only when the store has to wait (a shared store without a lease): the usual decision is synchronous.
  // Any thenable a store returns is waited for; what limitRequest returns then is always a native promise (dispatch tests with instanceof).
  if (isThenable(decision))
    return Promise.resolve(decision).then(
      (settled) => ticketOrRefusal(settled, limits, body, estimatedTokens),
      () => undefined,
    );
  return ticketOrRefusal(decision, limits, body, estimatedTokens);
}
