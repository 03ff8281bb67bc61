import { GatewayError } from '../errors/gateway-error.js';
import { parseJsonWithSlices } from './parse-json-with-slices.js';

// A key named __proto__ survives JSON.parse as an own property and poisons any object later
// assigned from it; constructor.prototype does the same one level down. Both are refused outright.
function rejectPoisonedKeys(this: unknown, key: string, value: unknown): unknown {
  if (key === '__proto__')
    throw GatewayError.badRequest(
      'The request body contains the forbidden key "__proto__".',
      null,
      'invalid_json',
    );
  if (
    key === 'constructor' &&
    typeof value === 'object' &&
    value !== null &&
    Object.hasOwn(value, 'prototype')
  ) {
    throw GatewayError.badRequest(
      'The request body contains the forbidden key "constructor.prototype".',
      null,
      'invalid_json',
    );
  }
  return value;
}

/** JSON.parse that refuses prototype poisoning and turns every failure into a 400 envelope. */
export function parseJson(text: string): unknown {
  if (text.length === 0) throw GatewayError.invalidJson('the body is empty.');
  try {
    // The reviver costs a walk of the whole value, so it runs only when a dangerous key can be present.
    const reviver =
      text.includes('__proto__') || text.includes('constructor') ? rejectPoisonedKeys : undefined;
    // A body with long string values (an image's data URL) keeps them as slices of the text, not copies.
    return parseJsonWithSlices(text, reviver) ?? JSON.parse(text, reviver);
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    // RangeError: nesting deep enough to exhaust the parser's stack.
    const reason =
      error instanceof RangeError
        ? 'the value is nested too deeply.'
        : error instanceof Error
          ? error.message
          : 'unparseable.';
    throw GatewayError.invalidJson(reason);
  }
}
