import { GatewayError } from '../errors/gateway-error.js';
import type { ApiKeyIdentity } from '../handlers/ports.js';
import type { HandlerInput, ResultMeta, RouteDefinition } from '../http/handler-types.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import { estimatePromptTokens, estimateRequestTokens } from './estimate-request-tokens.js';
import { formatResetDuration } from './format-reset-duration.js';
import { hasKeyLimits } from './key-limits.js';
import type { LimitLease, LimitRejection, LimitSnapshot, LimitStore } from './limit-store.js';
import { rateLimitHeaders } from './rate-limit-headers.js';

/**
 * An admitted request of a limited key: the headers every response of it carries, and what its
 * settlement needs. The gateway's request finaliser settles it once, when the request is over.
 */
export interface LimitTicket {
  headers: Record<string, string>;
  lease: LimitLease;
  /** The prompt's estimate, charged (plus one token per event sent) for a stream cut before its usage arrived. */
  promptTokens: number;
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

/**
 * The tokens a finished request is charged: the usage its result reports or, for a stream cut before
 * its usage arrived, the prompt estimate plus one token per event sent (the upstream sends one chunk
 * per token, so events sent is what the client received). Nothing reported by a JSON answer: 0, the
 * request used no model.
 */
export function usedTokens(ticket: LimitTicket, meta: ResultMeta, streamedEvents: number | undefined): number {
  return reportedTokens(meta) ?? (streamedEvents === undefined ? 0 : ticket.promptTokens + streamedEvents);
}

/**
 * The key limits of an authenticated model-calling request (routes with a body): undefined when the
 * key has none, a ticket when admitted, a 429 GatewayError (Retry-After and the rate-limit headers)
 * when over a limit. Routes without a body (catalogue, pricing, health) are not counted, like the
 * admission cap. A store that fails admits the request: limits never turn into a 5xx.
 */
export async function limitRequest(route: RouteDefinition, input: HandlerInput, config: GatewayConfig, store: LimitStore, identity: ApiKeyIdentity | undefined): Promise<LimitTicket | undefined> {
  const limits = identity?.limits;
  if (route.bodyLimit === 'none' || identity === undefined || !hasKeyLimits(limits)) return undefined;
  const estimate = estimateRequestTokens(route.operationId, input.body, config.limits.defaultMaxTokens);
  // A request larger than the whole minute's allowance is admitted into an empty window rather than
  // refused forever; it is charged its real usage when it settles.
  const estimatedTokens = limits.tokensPerMinute === undefined ? estimate : Math.min(estimate, limits.tokensPerMinute);
  let decision;
  try {
    decision = await store.acquire({ key: identity.name, limits, estimatedTokens });
  } catch {
    return undefined;
  }
  if (!decision.admitted) {
    const limit = decision.rejectedBy === 'requests' ? limits.requestsPerMinute : decision.rejectedBy === 'tokens' ? limits.tokensPerMinute : limits.concurrentRequests;
    throw rateLimited(decision.rejectedBy, decision.snapshot, decision.retryAfterMs, limit);
  }
  return { headers: rateLimitHeaders(decision.snapshot), lease: decision.lease, promptTokens: Math.min(estimatePromptTokens(input.body), estimatedTokens) };
}
