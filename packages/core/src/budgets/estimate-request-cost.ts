import type { Endpoint } from '../catalogue/catalogue-types.js';
import type { GatewayConfig } from '../config/gateway-config.js';
import {
  estimateOutputTokens,
  estimatePromptTokens,
  numberAfterColon,
  skipJsonSpace,
} from '../limits/estimate-request-tokens.js';

const modelField = '"model"';
const imageCountField = '"n"';
const imageEndpoints: ReadonlySet<Endpoint | undefined> = new Set([
  'image-generations',
  'image-edits',
]);

/** The string value of the first `"model": "..."` in the body: scanned, as the body is not parsed yet. */
function namedModel(body: string): string | undefined {
  let from = body.indexOf(modelField);
  while (from !== -1) {
    const after = from + modelField.length;
    let index = skipJsonSpace(body, after);
    if (body.charCodeAt(index) === 0x3a) {
      index = skipJsonSpace(body, index + 1);
      if (body.charCodeAt(index) === 0x22) {
        const end = body.indexOf('"', index + 1);
        return end === -1 ? undefined : body.slice(index + 1, end);
      }
    }
    from = body.indexOf(modelField, after);
  }
  return undefined;
}

/**
 * What a request is expected to cost in `currency`, before its model is called: its model's price (a
 * virtual model's first model) applied to the token estimate tokens_per_minute reserves (a quarter of
 * the body's text characters in, the `max_tokens` named or the default out), plus `per_image` times `n`
 * (or one) for images. 0 for a model without a price in that currency: such requests are not charged.
 */
export function estimateRequestCost(
  endpoint: Endpoint | undefined,
  body: string | undefined,
  config: Pick<GatewayConfig, 'catalogue' | 'prices' | 'limits'>,
  currency: string,
): number {
  if (body === undefined) return 0;
  const requested = namedModel(body);
  if (requested === undefined) return 0;
  const model = config.catalogue.virtualModels.get(requested) ?? requested;
  const price = Object.hasOwn(config.prices, model) ? config.prices[model] : undefined;
  if (price === undefined || price.currency !== currency) return 0;
  const input = estimatePromptTokens(body);
  const output = estimateOutputTokens(endpoint, body, config.limits.defaultMaxTokens);
  let amount = (input * price.input_per_million + output * price.output_per_million) / 1_000_000;
  if (imageEndpoints.has(endpoint) && price.per_image !== undefined) {
    const at = body.indexOf(imageCountField);
    const count = at === -1 ? undefined : numberAfterColon(body, at + imageCountField.length);
    amount += (count ?? 1) * price.per_image;
  }
  return amount;
}
