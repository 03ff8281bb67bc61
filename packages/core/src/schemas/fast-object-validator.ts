import type { z } from 'zod';
import { withoutTopLevelNulls } from './nulls-as-absent.js';

/**
 * A request body's parsed value, or `undefined` when the fast path cannot vouch for one (an unknown key,
 * a failing field, a failing cross-field check): the caller then runs the zod schema itself, which
 * gives the error.
 */
export type FastValidator = (value: unknown) => object | undefined;

type Internals = z.core.$ZodTypeInternals;

export interface FastValidatorOptions {
  /**
   * No validator (undefined) for a shape with fewer keys than this that are optional both ways: skipping
   * absent keys is all the fast path saves, and with few of them zod's own compiled parser is faster.
   */
  minimumOptionalKeys?: number;
}

/** What an absent key does to the result, as zod's object parser decides it (`handlePropertyResult`). */
type AbsentRule =
  /** Optional in and out: the key stays absent and its schema is not consulted. */
  | 'skip'
  /** Required: zod refuses the body. */
  | 'refuse'
  /** A default, a catch or a transform: the schema runs on `undefined` and may put a value in. */
  | 'run';

interface Field {
  key: string;
  /** Index in the shape: zod's output has the shape's key order. */
  position: number;
  schema: Internals;
  absent: AbsentRule;
  optin: Internals['optin'];
  optoutOptional: boolean;
  /** The call that last found this key in a body (see `call` below): marks presence without a lookup. */
  seenIn: number;
}

function absentRule(schema: Internals): AbsentRule {
  if (schema.optin === undefined) return 'refuse';
  if (schema.optin === 'optional' && schema.optout === 'optional') return 'skip';
  return 'run';
}

function hasChecks(schema: Internals): boolean {
  return (schema.def.checks?.length ?? 0) > 0;
}

/**
 * A validator that gives exactly what `schema.safeParse` gives for a valid JSON body, visiting only the
 * keys the body has, where zod's object parser visits, and allocates for, every optional key. For a
 * top-level `z.object` or `z.strictObject`, optionally with checks and `nullsAsAbsent`; undefined for
 * any other schema. The value must be JSON.parse's, so presence is zod's `key in input`, and each
 * present key is checked by its own shape entry.
 */
export function fastObjectValidator(
  schema: z.core.$ZodType,
  options: FastValidatorOptions = {},
): FastValidator | undefined {
  let nullsAsAbsent = false;
  let object = schema._zod;
  if (object.def.type === 'pipe') {
    const pipe = object.def as z.core.$ZodPipeDef;
    const preprocess = pipe.in._zod;
    if (hasChecks(object) || preprocess.def.type !== 'transform' || hasChecks(preprocess))
      return undefined;
    if ((preprocess.def as z.core.$ZodTransformDef).transform !== withoutTopLevelNulls)
      return undefined;
    nullsAsAbsent = true;
    object = pipe.out._zod;
  }
  if (object.def.type !== 'object') return undefined;
  const def = object.def as z.core.$ZodObjectDef;
  // Strict (catchall never) refuses an unknown key, plain (no catchall) drops it; a catchall that parses
  // unknown keys is not handled.
  const catchall = def.catchall?._zod.def.type;
  if (catchall !== undefined && catchall !== 'never') return undefined;
  const strict = catchall === 'never';
  const shape = def.shape;
  if (Object.getOwnPropertySymbols(shape).length > 0) return undefined;
  const fields = new Map<string, Field>();
  const keys = Object.keys(shape);
  for (const [position, key] of keys.entries()) {
    // A key Object.prototype has would be "present" in every body (zod tests presence with `in`).
    if (key in Object.prototype || key === '__proto__') return undefined;
    const entry = shape[key];
    if (entry === undefined) return undefined;
    const internals = entry._zod;
    const absent = absentRule(internals);
    fields.set(key, {
      key,
      position,
      schema: internals,
      absent,
      optin: internals.optin,
      optoutOptional: internals.optout === 'optional',
      seenIn: 0,
    });
  }
  const requiredCount = [...fields.values()].filter((field) => field.absent === 'refuse').length;
  const filledWhenAbsent = [...fields.values()].filter((field) => field.absent === 'run');
  if (keys.length - requiredCount - filledWhenAbsent.length < (options.minimumOptionalKeys ?? 0))
    return undefined;
  const checks = def.checks ?? [];

  // The fields found and their parsed values, kept in shape order (zod's output order, which the
  // upstream request's JSON keeps). Reused across calls, and the values let go of after each call, so
  // nothing of a request outlives it; `count` is how many slots the current call uses. A call is
  // synchronous and no shape entry validates a request body, so only one call uses them at a time.
  const foundFields: Field[] = [];
  const foundValues: unknown[] = [];
  let count = 0;
  let call = 0;
  const found = (field: Field, parsed: unknown): void => {
    let index = count;
    while (index > 0) {
      const before = foundFields[index - 1];
      if (before === undefined || before.position < field.position) break;
      foundFields[index] = before;
      foundValues[index] = foundValues[index - 1];
      index -= 1;
    }
    foundFields[index] = field;
    foundValues[index] = parsed;
    count += 1;
  };

  const validate = (value: unknown): object | undefined => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const input = value as Record<string, unknown>;
    // One context per parse, as safeParse makes: zod keeps per-parse state (cycle memo) on it.
    const ctx: z.core.ParseContextInternal = { async: false };
    let requiredFound = 0;
    for (const key in input) {
      const given = input[key];
      if (nullsAsAbsent && given === null) continue;
      const field = fields.get(key);
      if (field === undefined) {
        if (strict) return undefined;
        continue;
      }
      const result = field.schema.run({ value: given, issues: [] }, ctx);
      if (result instanceof Promise || result.issues.length > 0) return undefined;
      found(field, result.value);
      field.seenIn = call;
      if (field.absent === 'refuse') requiredFound += 1;
    }
    if (requiredFound !== requiredCount) return undefined;
    for (const field of filledWhenAbsent) {
      if (field.seenIn === call) continue;
      const result = field.schema.run({ value: undefined, issues: [] }, ctx);
      if (result instanceof Promise) return undefined;
      if (result.issues.length > 0) {
        // zod drops a failure on an absent key that is optional both ways, and refuses the body otherwise.
        if (field.optoutOptional) continue;
        return undefined;
      }
      if (result.value === undefined && (field.optin !== 'defaulted' || field.optoutOptional))
        continue;
      found(field, result.value);
    }
    const output: Record<string, unknown> = {};
    for (let index = 0; index < count; index += 1) {
      const field = foundFields[index];
      if (field !== undefined) output[field.key] = foundValues[index];
    }
    if (checks.length === 0) return output;
    // An object's checks are typed for a `never` input (its type is not known to the def); they read the parsed object.
    const payload: z.core.ParsePayload<never> = { value: output as never, issues: [] };
    for (const check of checks) {
      const internals = check._zod;
      if (internals.def.when !== undefined && !internals.def.when(payload)) continue;
      const pending = internals.check(payload);
      if (pending instanceof Promise || payload.issues.length > 0) return undefined;
    }
    return payload.value;
  };

  return (value) => {
    count = 0;
    call += 1;
    try {
      return validate(value);
    } finally {
      foundValues.fill(undefined, 0, count);
    }
  };
}
