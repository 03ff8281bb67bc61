import type { JsonSchema } from '../schemas/json-schema.js';

/** One field of the configuration file as the reference lists it. */
export interface ConfigReferenceRow {
  /** Path in the file: `upstreams[].models`, `models.<id>.kind`. */
  path: string;
  type: string;
  required: boolean;
  description: string | undefined;
}

function schemaList(value: unknown): JsonSchema[] {
  return Array.isArray(value) ? (value as JsonSchema[]) : [];
}

function schemaOf(value: unknown): JsonSchema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonSchema)
    : undefined;
}

function isRecord(schema: JsonSchema): boolean {
  return (
    schema.type === 'object' &&
    schema.properties === undefined &&
    schemaOf(schema.additionalProperties) !== undefined
  );
}

function numberLabel(schema: JsonSchema, name: string): string {
  // Every integer is bounded to the safe range; only a real maximum (a port, a percentage) is worth showing.
  const maximum = schema.maximum === Number.MAX_SAFE_INTEGER ? undefined : schema.maximum;
  if (schema.exclusiveMinimum === 0) return `${name} > 0`;
  if (schema.minimum !== undefined && maximum !== undefined)
    return `${name} ${String(schema.minimum)} to ${String(maximum)}`;
  if (schema.minimum === 0) return `${name} >= 0`;
  return name;
}

/** A short type for a reader: `integer > 0`, `one of openai, tei`, `list of string`, `mapping of <id> to string`. */
export function typeLabel(schema: JsonSchema): string {
  const members = schemaList(schema.anyOf);
  if (members.length > 0) return members.map(typeLabel).join(' or ');
  if (Array.isArray(schema.enum))
    return `one of ${schema.enum.map((value) => `\`${String(value)}\``).join(', ')}`;
  if (schema.type === 'integer' || schema.type === 'number')
    return numberLabel(schema, schema.type);
  if (schema.type === 'array') return `list of ${typeLabel(schemaOf(schema.items) ?? {})}`;
  if (schema.type === 'object')
    return isRecord(schema)
      ? `mapping of <id> to ${typeLabel(schemaOf(schema.additionalProperties) ?? {})}`
      : 'mapping';
  return typeof schema.type === 'string' ? schema.type : 'any';
}

function description(schema: JsonSchema): string | undefined {
  return typeof schema.description === 'string' ? schema.description : undefined;
}

function requiredNames(schema: JsonSchema): ReadonlySet<string> {
  return new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
}

/** The rows below a field: an object's properties, a list's items, a mapping's values, a union's object members. */
function childRows(schema: JsonSchema, path: string): ConfigReferenceRow[] {
  const properties = schemaOf(schema.properties);
  if (properties !== undefined) {
    const required = requiredNames(schema);
    return Object.entries(properties).flatMap(([name, child]) =>
      fieldRows(child as JsonSchema, `${path}.${name}`, required.has(name)),
    );
  }
  const members = schemaList(schema.anyOf);
  if (members.length > 0) {
    // A described union is one row; an undescribed one (`keys[]`) shows each described form.
    return members.flatMap((member) =>
      description(schema) === undefined &&
      schemaOf(member.properties) === undefined &&
      description(member) !== undefined
        ? [row(member, path, false)]
        : childRows(member, path),
    );
  }
  if (schema.type === 'array') return childRows(schemaOf(schema.items) ?? {}, `${path}[]`);
  if (isRecord(schema))
    return childRows(schemaOf(schema.additionalProperties) ?? {}, `${path}.<id>`);
  return [];
}

function row(schema: JsonSchema, path: string, required: boolean): ConfigReferenceRow {
  return { path, type: typeLabel(schema), required, description: description(schema) };
}

function fieldRows(schema: JsonSchema, path: string, required: boolean): ConfigReferenceRow[] {
  return [row(schema, path, required), ...childRows(schema, path)];
}

/**
 * Every field of the configuration file under one top-level key, from the JSON Schema of the file's
 * validated form (`z.toJSONSchema(schema, { io: 'output' })`), the key itself first.
 */
export function configReferenceRows(name: string, schema: JsonSchema): ConfigReferenceRow[] {
  return fieldRows(schema, name, false);
}
