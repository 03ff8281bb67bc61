import type { SchemaObject } from './resolve-schema.js';

/**
 * The number nearest to `preferred` that the schema's bounds allow: `minimum` / `maximum`, `exclusiveMinimum` /
 * `exclusiveMaximum` as numbers (draft 6 on) or as booleans beside the bounds (draft 4), and `multipleOf`.
 */
export function numberInRange(schema: SchemaObject, integer: boolean, preferred: number): number {
  const exclusiveLow =
    typeof schema.exclusiveMinimum === 'number'
      ? schema.exclusiveMinimum
      : schema.exclusiveMinimum === true
        ? numeric(schema.minimum)
        : undefined;
  const exclusiveHigh =
    typeof schema.exclusiveMaximum === 'number'
      ? schema.exclusiveMaximum
      : schema.exclusiveMaximum === true
        ? numeric(schema.maximum)
        : undefined;
  const step =
    typeof schema.multipleOf === 'number' && schema.multipleOf > 0
      ? schema.multipleOf
      : integer
        ? 1
        : undefined;
  let low =
    schema.exclusiveMinimum === true
      ? Number.NEGATIVE_INFINITY
      : (numeric(schema.minimum) ?? Number.NEGATIVE_INFINITY);
  let high =
    schema.exclusiveMaximum === true
      ? Number.POSITIVE_INFINITY
      : (numeric(schema.maximum) ?? Number.POSITIVE_INFINITY);
  if (step !== undefined) {
    // On a grid of steps, an exclusive bound is the next grid point inside it.
    if (exclusiveLow !== undefined)
      low = Math.max(low, (Math.floor(exclusiveLow / step) + 1) * step);
    if (exclusiveHigh !== undefined)
      high = Math.min(high, (Math.ceil(exclusiveHigh / step) - 1) * step);
    const lowest = Math.ceil(low / step) * step;
    const highest = Math.floor(high / step) * step;
    const nearest = Math.round(preferred / step) * step;
    return Math.min(Math.max(nearest, lowest), highest);
  }
  if (exclusiveLow !== undefined) low = Math.max(low, exclusiveLow);
  if (exclusiveHigh !== undefined) high = Math.min(high, exclusiveHigh);
  const lowOpen = exclusiveLow !== undefined && low === exclusiveLow;
  const highOpen = exclusiveHigh !== undefined && high === exclusiveHigh;
  if (preferred > low && preferred < high) return preferred;
  if (preferred === low && !lowOpen) return preferred;
  if (preferred === high && !highOpen) return preferred;
  if (preferred <= low) return lowOpen ? (Number.isFinite(high) ? (low + high) / 2 : low + 1) : low;
  return highOpen ? (Number.isFinite(low) ? (low + high) / 2 : high - 1) : high;
}

function numeric(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
