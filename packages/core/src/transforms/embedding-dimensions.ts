import type { ModelEntry } from '../catalogue/catalogue-types.js';
import { GatewayError } from '../errors/gateway-error.js';

/**
 * How a requested dimension is checked: `range` takes any integer within the entry's min..max
 * (POST /v1/embeddings: "128 to 4096"), `list` only the entry's allowed values (POST /compat/v2/embed
 * lists them).
 */
export type DimensionsCheck = 'range' | 'list';

/**
 * The `dimensions` to send upstream for a requested value, or undefined to let the model use its own.
 * A model with fixed dimensions takes no request for another size (the spec offers dimensions only for
 * the configurable model); an out-of-range or unlisted value is a 400 naming `param`, never clamped.
 */
export function embeddingDimensions(
  entry: ModelEntry,
  requested: number | undefined,
  param: string,
  check: DimensionsCheck,
): number | undefined {
  if (requested === undefined) return undefined;
  const dimensions = entry.dimensions;
  // Asking a fixed-size model for the size it has is harmless and some clients always send it: it is
  // accepted, and not sent on, since servers refuse `dimensions` for a model that cannot shorten.
  if (dimensions?.kind === 'fixed' && requested === dimensions.value) return undefined;
  if (dimensions === undefined || dimensions.kind === 'fixed') {
    const fixed =
      dimensions === undefined
        ? ''
        : ` (its embeddings have ${dimensions.value} dimensions, fixed)`;
    throw GatewayError.invalidParameter(
      param,
      `The model '${entry.id}' does not support '${param}'${fixed}.`,
    );
  }
  if (check === 'list') {
    if (!dimensions.allowed.includes(requested)) {
      throw GatewayError.invalidParameter(
        param,
        `Invalid value for '${param}': ${requested} is not supported by '${entry.id}'; use one of ${dimensions.allowed.join(', ')}.`,
      );
    }
    return requested;
  }
  if (requested < dimensions.min || requested > dimensions.max) {
    throw GatewayError.invalidParameter(
      param,
      `Invalid value for '${param}': ${requested} is out of range for '${entry.id}'; use an integer from ${dimensions.min} to ${dimensions.max}.`,
    );
  }
  return requested;
}
