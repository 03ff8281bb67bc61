import type { GatewayConfig } from '../config/gateway-config.js';
import type { RouteHandler } from '../ports/handler-types.js';

/** One row of GET /pricing: the configured price of a catalogue model, per million tokens. */
export interface PriceObject {
  model: string;
  input_per_million: number;
  output_per_million: number;
  /** Only for models priced per image. */
  per_image?: number;
  currency: string;
}

/**
 * The configured prices in catalogue order. A model without a configured price is left out rather
 * than listed with nulls: the gateway does not know its price, and a client summing costs should not
 * meet a null where it expects a number.
 */
export function listPrices(config: GatewayConfig): PriceObject[] {
  const rows: PriceObject[] = [];
  for (const id of config.catalogue.models.keys()) {
    const price = Object.hasOwn(config.prices, id) ? config.prices[id] : undefined;
    if (!price) continue;
    const row: PriceObject = {
      model: id,
      input_per_million: price.input_per_million,
      output_per_million: price.output_per_million,
      currency: price.currency,
    };
    if (price.per_image !== undefined) row.per_image = price.per_image;
    rows.push(row);
  }
  return rows;
}

/** GET /pricing: `{object: 'list', data: [{model, input_per_million, output_per_million, currency}]}`. */
export const pricingHandler: RouteHandler = async (_input, context) => ({
  kind: 'json',
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ object: 'list', data: listPrices(context.config) }),
  meta: {},
});
