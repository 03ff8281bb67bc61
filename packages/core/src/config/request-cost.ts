import type { PriceEntry } from './gateway-config.js';

/** What one priced model of a request cost. */
export interface CostPart {
  model: string;
  amount: number;
  currency: string;
}

/** The usage a request's cost is read from: ResultMeta's token and image counts. */
export interface CostedUsage {
  model?: string;
  inputTokens?: number;
  outputTokens?: number;
  images?: number;
  promptEnhancement?: { model: string; inputTokens: number; outputTokens: number };
}

function partOf(
  model: string,
  price: PriceEntry | undefined,
  inputTokens: number,
  outputTokens: number,
  images: number,
): CostPart | undefined {
  if (price === undefined) return undefined;
  const amount =
    (inputTokens * price.input_per_million + outputTokens * price.output_per_million) / 1_000_000 +
    images * (price.per_image ?? 0);
  return { model, amount, currency: price.currency };
}

/**
 * What a finished request cost at the configured prices: its model's input and output tokens and
 * images, and a `-pe` model's prompt rewrite at its text model's prices. A model without a price adds
 * nothing: the gateway does not guess.
 */
export function requestCost(
  usage: CostedUsage,
  prices: Readonly<Record<string, PriceEntry>>,
): readonly CostPart[] {
  const parts: CostPart[] = [];
  const priceOf = (model: string): PriceEntry | undefined =>
    Object.hasOwn(prices, model) ? prices[model] : undefined;
  if (usage.model !== undefined) {
    const part = partOf(
      usage.model,
      priceOf(usage.model),
      usage.inputTokens ?? 0,
      usage.outputTokens ?? 0,
      usage.images ?? 0,
    );
    if (part !== undefined) parts.push(part);
  }
  const enhancement = usage.promptEnhancement;
  if (enhancement !== undefined) {
    const part = partOf(
      enhancement.model,
      priceOf(enhancement.model),
      enhancement.inputTokens,
      enhancement.outputTokens,
      0,
    );
    if (part !== undefined) parts.push(part);
  }
  return parts;
}

/**
 * A model's price as a function of its usage, for the `cost` a stream's usage chunk carries (a number
 * in the price's currency, as the header writes it); undefined for a model without a price.
 */
export function usageCostOf(
  prices: Readonly<Record<string, PriceEntry>>,
  model: string,
): ((inputTokens: number, outputTokens: number) => number) | undefined {
  const price = Object.hasOwn(prices, model) ? prices[model] : undefined;
  if (price === undefined) return undefined;
  return (inputTokens, outputTokens) =>
    Number(formatAmount(partOf(model, price, inputTokens, outputTokens, 0)?.amount ?? 0));
}

/** An amount as the header, the log and the metric write it: at most 10 decimals, no trailing zeros. */
export function formatAmount(amount: number): string {
  return amount.toFixed(10).replace(/\.?0+$/, '');
}

/** `0.0001234 USD`, summed per currency (`, ` between currencies); undefined when nothing was priced. */
export function formatCost(parts: readonly CostPart[]): string | undefined {
  if (parts.length === 0) return undefined;
  const totals = new Map<string, number>();
  for (const { amount, currency } of parts)
    totals.set(currency, (totals.get(currency) ?? 0) + amount);
  return [...totals].map(([currency, amount]) => `${formatAmount(amount)} ${currency}`).join(', ');
}
