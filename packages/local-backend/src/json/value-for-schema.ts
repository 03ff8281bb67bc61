import { formattedString } from './formatted-string.js';
import { numberInRange } from './number-in-range.js';
import { SchemaResolver, asSchema, shallowDepth } from './resolve-schema.js';
import type { SchemaObject } from './resolve-schema.js';

// Beyond this nesting a schema that still demands more (a required recursive property) gets null: no valid
// finite value exists, and answering beats looping.
const maxDepth = 32;
const wordsPerString = 8;
// A schema may ask for more than any answer could hold (minItems 1e9); past these the value is cut short and no
// longer valid, as a model's answer would be cut by max_tokens, instead of exhausting the server's memory.
const itemCap = 1_000;
const lengthCap = 10_000;

/**
 * A JSON value valid for `schema`, built from `words` (the prompt's): what a model under vLLM's structured
 * output would produce, minus the intelligence. Deterministic: the same schema and words give the same value.
 * Every property is present, required or not, with the simplest valid value for its type; strings take
 * successive runs of the words, cut or extended to the length bounds; numbers are 0 or the nearest allowed.
 */
export function valueForSchema(schema: unknown, words: readonly string[]): unknown {
  return new SchemaValues(schema, words.length > 0 ? words : ['local', 'backend']).value(
    schema,
    0,
    0,
  );
}

class SchemaValues {
  private cursor = 0;
  private readonly resolver: SchemaResolver;

  constructor(
    root: unknown,
    private readonly words: readonly string[],
  ) {
    this.resolver = new SchemaResolver(root);
  }

  value(raw: unknown, depth: number, index: number): unknown {
    if (raw === false || depth > maxDepth) return null;
    const schema = this.resolver.resolve(raw, depth);
    if ('const' in schema) return schema.const;
    if (Array.isArray(schema.enum) && schema.enum.length > 0)
      return schema.enum[index % schema.enum.length];
    if ('default' in schema && schema.default !== undefined) return schema.default;
    switch (typeOf(schema)) {
      case 'null':
        return null;
      case 'boolean':
        return index % 2 === 0;
      case 'integer':
        return numberInRange(schema, true, index);
      case 'number':
        return numberInRange(schema, false, index);
      case 'array':
        return this.array(schema, depth);
      case 'object':
        return this.object(schema, depth);
      default:
        return this.string(schema);
    }
  }

  private string(schema: SchemaObject): string {
    const start = this.cursor % this.words.length;
    this.cursor += 1;
    const run = [...this.words.slice(start), ...this.words.slice(0, start)]
      .slice(0, wordsPerString)
      .join(' ');
    const formatted =
      typeof schema.format === 'string' ? formattedString(schema.format, run) : undefined;
    if (formatted !== undefined) return formatted;
    const minLength =
      typeof schema.minLength === 'number' ? Math.min(schema.minLength, lengthCap) : 0;
    const maxLength =
      typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
    let text = run;
    while ([...text].length < minLength) text += ` ${run}`;
    text = [...text].slice(0, maxLength).join('');
    return typeof schema.pattern === 'string' ? matchingPattern(schema.pattern, text) : text;
  }

  private array(schema: SchemaObject, depth: number): unknown[] {
    // Tuples: draft 2020-12 `prefixItems`, or draft 7's `items` as a list with `additionalItems` for the rest.
    const prefix = Array.isArray(schema.prefixItems)
      ? schema.prefixItems
      : Array.isArray(schema.items)
        ? schema.items
        : [];
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
    const minItems = typeof schema.minItems === 'number' ? Math.min(schema.minItems, itemCap) : 0;
    const maxItems =
      typeof schema.maxItems === 'number' ? schema.maxItems : Number.POSITIVE_INFINITY;
    const wanted = prefix.length > 0 ? prefix.length : depth >= shallowDepth ? 0 : 1;
    const count = Math.min(
      Math.max(minItems, wanted),
      maxItems,
      prefix.length > 0 && rest === false ? prefix.length : Number.POSITIVE_INFINITY,
    );
    return Array.from({ length: count }, (_, index) =>
      this.value(index < prefix.length ? prefix[index] : rest, depth + 1, index),
    );
  }

  private object(schema: SchemaObject, depth: number): Record<string, unknown> {
    const properties = asSchema(schema.properties);
    const required = Array.isArray(schema.required)
      ? schema.required.filter((key): key is string => typeof key === 'string')
      : [];
    const result: Record<string, unknown> = {};
    for (const [key, property] of Object.entries(properties)) {
      if (depth >= shallowDepth && !required.includes(key)) continue;
      result[key] = this.value(property, depth + 1, 0);
    }
    const extra = schema.additionalProperties === false ? undefined : schema.additionalProperties;
    for (const key of required) if (!(key in result)) result[key] = this.value(extra, depth + 1, 0);
    const minProperties =
      typeof schema.minProperties === 'number' ? Math.min(schema.minProperties, itemCap) : 0;
    for (
      let index = 1;
      Object.keys(result).length < minProperties && schema.additionalProperties !== false;
      index += 1
    ) {
      if (!(`field_${index}` in result)) result[`field_${index}`] = this.value(extra, depth + 1, 0);
    }
    return result;
  }
}

/** The type to produce: the first non-null of a type list, else what the keywords imply; a string when nothing does. */
function typeOf(schema: SchemaObject): string {
  const types = Array.isArray(schema.type)
    ? schema.type.filter((type): type is string => typeof type === 'string')
    : typeof schema.type === 'string'
      ? [schema.type]
      : [];
  const chosen = types.find((type) => type !== 'null') ?? types[0];
  if (chosen !== undefined) return chosen;
  if (
    schema.properties !== undefined ||
    schema.required !== undefined ||
    schema.additionalProperties !== undefined
  )
    return 'object';
  if (schema.items !== undefined || schema.prefixItems !== undefined) return 'array';
  if (
    schema.minimum !== undefined ||
    schema.maximum !== undefined ||
    schema.multipleOf !== undefined
  )
    return 'number';
  return 'string';
}

/**
 * The text when it matches `pattern`, else the first of a few plain candidates that does (no regex inversion:
 * that is a grammar engine's job); the text as a last resort.
 */
function matchingPattern(pattern: string, text: string): string {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    return text;
  }
  const letters = text.replace(/[^\p{L}\p{N}]/gu, '');
  const candidates = [
    text,
    letters,
    letters.toLowerCase(),
    letters.toUpperCase(),
    'a',
    'A',
    '0',
    'a0',
    'local',
    '',
  ];
  return candidates.find((candidate) => regex.test(candidate)) ?? text;
}
