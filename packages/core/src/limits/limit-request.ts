import { GatewayError } from '../errors/gateway-error.js';
import type { ApiKeyIdentity } from '../handlers/ports.js';
import type { GatewayDeps, HandlerInput, ResultMeta, RouteDefinition } from '../http/handler-types.js';
import { estimatePromptTokens, estimateRequestTokens } from './estimate-request-tokens.js';
import { formatResetDuration } from './format-reset-duration.js';
import { hasKeyLimits, type KeyLimits } from './key-limits.js';
import type { LimitDecision, LimitLease, LimitRejection, LimitSnapshot } from './limit-store.js';
import { limitStoreFor } from './limit-store-for.js';
import { rateLimitHeaders } from './rate-limit-headers.js';

/** An admitted request of a limited key: the headers every response of it carries, and its settlement. */
export interface LimitTicket {
  headers: Record<string, string>;
  /** Settles a JSON result with the usage it reports (nothing reported: 0, the request used no model). */
  settle(meta: ResultMeta): void;
  /**
   * Passes a stream through and settles once when it ends, with the usage in `meta` or, for a stream cut
   * before its usage arrived, the prompt estimate plus one token per event sent (the upstream sends one
   * chunk per token, so events sent is what the client received).
   */
  observe(stream: ReadableStream<Uint8Array>, meta: ResultMeta): ReadableStream<Uint8Array>;
}

const describedLimit: Readonly<Record<LimitRejection, string>> = {
  requests: 'requests per minute',
  tokens: 'tokens per minute',
  concurrency: 'concurrent requests',
};

function rateLimited(rejectedBy: LimitRejection, snapshot: LimitSnapshot, retryMs: number, limit: number | undefined): GatewayError {
  const error = GatewayError.rateLimited(
    `Rate limit reached for ${describedLimit[rejectedBy]}${limit === undefined ? '' : ` (limit ${limit})`} on this API key. Try again in ${formatResetDuration(retryMs)}.`,
    Math.max(1, Math.ceil(retryMs / 1000)),
  );
  Object.assign(error.headers, rateLimitHeaders(snapshot));
  return error;
}

function reportedTokens(meta: ResultMeta): number | undefined {
  const enhancement = meta.promptEnhancement;
  if (meta.inputTokens === undefined && meta.outputTokens === undefined && enhancement === undefined) return undefined;
  return (meta.inputTokens ?? 0) + (meta.outputTokens ?? 0) + (enhancement === undefined ? 0 : enhancement.inputTokens + enhancement.outputTokens);
}

// A chunk is one encoded event; a ':' chunk is a keep-alive comment, not model output.
const commentByte = 0x3a;

/**
 * The ticket of an admitted request: a class rather than an object of closures, so that admitting
 * allocates this object and its headers only. The prompt estimate is worked out only for a stream.
 */
class AdmittedTicket implements LimitTicket {
  private settled = false;
  constructor(
    private readonly lease: LimitLease,
    readonly headers: Record<string, string>,
    private readonly body: string | undefined,
    private readonly estimatedTokens: number,
  ) {}

  settle(meta: ResultMeta): void {
    this.settleOnce(reportedTokens(meta) ?? 0);
  }

  observe(stream: ReadableStream<Uint8Array>, meta: ResultMeta): ReadableStream<Uint8Array> {
    const reader = stream.getReader();
    const promptTokens = Math.min(estimatePromptTokens(this.body), this.estimatedTokens);
    let events = 0;
    const end = (): void => this.settleOnce(reportedTokens(meta) ?? promptTokens + events);
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const chunk = await reader.read();
            if (chunk.done) {
              end();
              controller.close();
              return;
            }
            if (chunk.value[0] !== commentByte) events += 1;
            controller.enqueue(chunk.value);
          } catch (error) {
            end();
            controller.error(error);
          }
        },
        async cancel(reason) {
          try {
            await reader.cancel(reason);
          } finally {
            end();
          }
        },
      },
      { highWaterMark: 0 },
    );
  }

  private settleOnce(tokens: number): void {
    if (this.settled) return;
    this.settled = true;
    this.lease.settle(tokens);
  }
}

function ticketOrRefusal(decision: LimitDecision, limits: KeyLimits, body: string | undefined, estimatedTokens: number): LimitTicket {
  if (!decision.admitted) {
    const limit = decision.rejectedBy === 'requests' ? limits.requestsPerMinute : decision.rejectedBy === 'tokens' ? limits.tokensPerMinute : limits.concurrentRequests;
    throw rateLimited(decision.rejectedBy, decision.snapshot, decision.retryAfterMs, limit);
  }
  // The headers are taken now: the store may reuse the snapshot for its next decision.
  return new AdmittedTicket(decision.lease, rateLimitHeaders(decision.snapshot), body, estimatedTokens);
}

const noTicket = (): undefined => undefined;

function isThenable(value: LimitDecision | PromiseLike<LimitDecision>): value is PromiseLike<LimitDecision> {
  return typeof (value as Partial<PromiseLike<LimitDecision>>).then === 'function';
}

/**
 * The key limits of an authenticated model-calling request (routes with a body): undefined when the
 * key has none, a ticket when admitted, a 429 GatewayError (Retry-After and the rate-limit headers)
 * when over a limit. Routes without a body (catalogue, pricing, health) are not counted, like the
 * admission cap. A store that fails admits the request: limits never turn into a 5xx. Synchronous
 * (the ticket, or a thrown 429) when the store decides at once; a promise only when the store waits.
 */
export function limitRequest(route: RouteDefinition, input: HandlerInput, deps: GatewayDeps, identity: ApiKeyIdentity | undefined): LimitTicket | undefined | Promise<LimitTicket | undefined> {
  const limits = identity?.limits;
  if (route.bodyLimit === 'none' || identity === undefined || !hasKeyLimits(limits)) return undefined;
  const estimate = estimateRequestTokens(route.contract.answers === 'json' ? route.contract.endpoint : undefined, input.body, deps.config.limits.defaultMaxTokens);
  // A request larger than the whole minute's allowance is admitted into an empty window rather than
  // refused forever; it is charged its real usage when it settles.
  const estimatedTokens = limits.tokensPerMinute === undefined ? estimate : Math.min(estimate, limits.tokensPerMinute);
  let decision;
  try {
    decision = limitStoreFor(deps).acquire({ key: identity.name, limits, estimatedTokens });
  } catch {
    return undefined;
  }
  const body = input.body;
  // A promise only when the store has to wait (a shared store without a lease): the usual decision is synchronous.
  // Any thenable a store returns is waited for; what limitRequest returns then is always a native promise (dispatch tests with instanceof).
  if (isThenable(decision)) return Promise.resolve(decision).then((settled) => ticketOrRefusal(settled, limits, body, estimatedTokens), noTicket);
  return ticketOrRefusal(decision, limits, body, estimatedTokens);
}
