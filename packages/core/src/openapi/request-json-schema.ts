import { z } from 'zod';
import { inputForms } from '../schemas/input-forms.js';
import type { JsonSchema } from '../schemas/json-schema.js';

// z.int() adds the safe-integer range as bounds; in a reference page they are noise, not a rule.
const safeBounds: ReadonlyArray<[string, number]> = [
  ['maximum', Number.MAX_SAFE_INTEGER],
  ['minimum', Number.MIN_SAFE_INTEGER],
];

function replaceContents(target: JsonSchema, source: JsonSchema): void {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, source);
}

function documentOverride(context: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const schema = context.zodSchema as z.ZodType;
  const forms = inputForms.get(schema);
  if (forms !== undefined) {
    replaceContents(context.jsonSchema, { anyOf: forms.map((form) => requestJsonSchema(form)) });
  } else if (
    schema instanceof z.ZodPipe &&
    !(schema.in instanceof z.ZodTransform) &&
    !(schema.out instanceof z.ZodTransform)
  ) {
    // A pipe of two validators (`z.string().pipe(z.enum(...))`, written so a missing value is reported
    // as missing): what is accepted is what the second one accepts, and that is what to document.
    replaceContents(context.jsonSchema, requestJsonSchema(schema.out as z.ZodType));
  }
  for (const [key, bound] of safeBounds)
    if (context.jsonSchema[key] === bound) delete context.jsonSchema[key];
  // zod writes an array's size bounds before its type; a reader takes the kind of a value first.
  if ('type' in context.jsonSchema && Object.keys(context.jsonSchema)[0] !== 'type') {
    const { type, ...rest } = context.jsonSchema;
    replaceContents(context.jsonSchema, { type, ...rest });
  }
}

/**
 * The JSON Schema of what a request schema accepts (its input side: defaults are optional fields,
 * transforms and refinements are described by what they take in). Refinements that JSON Schema cannot
 * say (cross-field rules, image checks) are the server's to report, with the field named.
 */
export function requestJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: documentOverride,
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** The JSON Schema of what a response schema produces. */
export function responseJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io: 'output',
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: documentOverride,
  }) as JsonSchema;
  delete json.$schema;
  return json;
}
