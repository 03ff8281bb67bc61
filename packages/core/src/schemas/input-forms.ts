import type { z } from 'zod';

/**
 * The forms a schema accepts, for schemas whose accepted input zod cannot describe itself: a
 * `z.unknown().transform(...)` that checks the value by hand (see `stringOrArraySchema`) converts to
 * JSON Schema as "anything". The OpenAPI generator reads this map so that the document names the
 * forms the schema really accepts; parsing never reads it.
 */
export const inputForms = new WeakMap<z.ZodType, readonly z.ZodType[]>();
