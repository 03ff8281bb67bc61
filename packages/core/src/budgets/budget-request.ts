import { formatAmount, requestCost, type CostPart } from '../config/request-cost.js';
import type { GatewayConfig, KeyBudget, PriceEntry } from '../config/gateway-config.js';
import { estimatePromptTokens } from '../limits/estimate-request-tokens.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { HandlerInput, ResultMeta, RouteDefinition } from '../ports/handler-types.js';
import type { ApiKeyIdentity, Clock } from '../ports/ports.js';
import { formatBudgetReset } from './budget-period.js';
import type { BudgetDecision, BudgetLease, BudgetStore } from './budget-store.js';
import { estimateRequestCost } from './estimate-request-cost.js';

/** The budget headers: what is left (amount and currency, as `x-infergate-cost` writes them) and when it resets. */
function addBudgetHeaders(
  headers: Record<string, string>,
  budget: KeyBudget,
  remaining: number,
  resetAt: number,
): void {
  headers['x-infergate-budget-remaining'] = `${formatAmount(remaining)} ${budget.currency}`;
  headers['x-infergate-budget-reset'] = formatBudgetReset(resetAt);
}

/** An admitted request of a budgeted key: settled by the request finaliser, its headers added by dispatch. */
export class BudgetTicket {
  constructor(
    readonly lease: BudgetLease,
    readonly budget: KeyBudget,
    private readonly body: string | undefined,
  ) {}

  /** What is left and when it resets, as the lease knows it now (after the reservation, or after settling). */
  addHeaders(headers: Record<string, string>): void {
    addBudgetHeaders(headers, this.budget, this.lease.remaining, this.lease.resetAt);
  }

  /**
   * Charges the request its cost in the budget's currency (other currencies are not this budget's). A
   * stream cut before its usage arrived is charged as tokens_per_minute charges it: the prompt estimate
   * in, one token per event sent out.
   */
  settle(
    meta: ResultMeta,
    cost: readonly CostPart[],
    streamedEvents: number | undefined,
    prices: Readonly<Record<string, PriceEntry>>,
  ): void {
    let charged = cost;
    if (
      streamedEvents !== undefined &&
      meta.model !== undefined &&
      meta.inputTokens === undefined &&
      meta.outputTokens === undefined
    )
      charged = requestCost(
        {
          model: meta.model,
          inputTokens: estimatePromptTokens(this.body),
          outputTokens: streamedEvents,
        },
        prices,
      );
    let amount = 0;
    for (const part of charged) if (part.currency === this.budget.currency) amount += part.amount;
    this.lease.settle(amount);
  }
}

function budgetExceeded(
  budget: KeyBudget,
  remaining: number,
  resetAt: number,
  now: number,
): GatewayError {
  const reset = formatBudgetReset(resetAt);
  const error = GatewayError.budgetExceeded(
    `Budget of ${formatAmount(budget.amount)} ${budget.currency} per ${budget.period} reached for this API key; it resets at ${reset}.`,
    Math.max(1, Math.ceil((resetAt - now) / 1000)),
  );
  addBudgetHeaders(error.headers, budget, remaining, resetAt);
  return error;
}

function ticketOrRefusal(
  decision: BudgetDecision,
  budget: KeyBudget,
  body: string | undefined,
  clock: Clock,
): BudgetTicket {
  if (decision.admitted) return new BudgetTicket(decision.lease, budget, body);
  throw budgetExceeded(budget, decision.remaining, decision.resetAt, clock.now());
}

/**
 * The budget of an authenticated request to a route with a body: undefined when the key has none, a
 * ticket when admitted, a 429 `budget_exceeded` GatewayError (Retry-After until the period ends, the
 * budget headers) once it is spent. A store that fails admits the request.
 */
export function budgetRequest(
  route: RouteDefinition,
  input: HandlerInput,
  config: GatewayConfig,
  store: BudgetStore,
  identity: ApiKeyIdentity | undefined,
  clock: Clock,
): BudgetTicket | undefined | Promise<BudgetTicket | undefined> {
  const budget = identity?.budget;
  if (identity === undefined || budget === undefined || route.bodyLimit === 'none')
    return undefined;
  const estimate = estimateRequestCost(
    route.contract.answers === 'json' ? route.contract.endpoint : undefined,
    input.body,
    config,
    budget.currency,
  );
  let decision;
  try {
    decision = store.acquireBudget({
      key: identity.name,
      budget,
      estimatedCost: Math.min(estimate, budget.amount),
    });
  } catch {
    return undefined;
  }
  if (decision instanceof Promise)
    return decision.then(
      (settled) => ticketOrRefusal(settled, budget, input.body, clock),
      () => undefined,
    );
  return ticketOrRefusal(decision, budget, input.body, clock);
}
