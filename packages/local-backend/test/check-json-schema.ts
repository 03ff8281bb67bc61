// A test-only JSON Schema checker for the keywords the local backend promises to honour (no validator library
// is in the lockfile). Written from the JSON Schema 2020-12 validation spec, independently of src/json.

type Schema = boolean | Record<string, unknown>;

const formats: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i,
  date: /^\d{4}-\d{2}-\d{2}$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uri: /^[a-z][a-z0-9+.-]*:[^\s]*$/i,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

/** Every way `value` breaks `schema`, as `path: reason` lines; empty when it is valid. */
export function schemaErrors(
  value: unknown,
  schema: Schema,
  root: Schema = schema,
  path = '$',
): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${path}: no value is allowed`];
  const errors: string[] = [];
  const fail = (reason: string): void => void errors.push(`${path}: ${reason}`);
  if (typeof schema.$ref === 'string')
    errors.push(...schemaErrors(value, lookup(root, schema.$ref), root, path));
  if (Array.isArray(schema.allOf))
    for (const part of schema.allOf as Schema[])
      errors.push(...schemaErrors(value, part, root, path));
  if (
    Array.isArray(schema.anyOf) &&
    !(schema.anyOf as Schema[]).some((part) => schemaErrors(value, part, root, path).length === 0)
  )
    fail('matches no anyOf branch');
  if (Array.isArray(schema.oneOf)) {
    const matches = (schema.oneOf as Schema[]).filter(
      (part) => schemaErrors(value, part, root, path).length === 0,
    ).length;
    if (matches !== 1) fail(`matches ${matches} oneOf branches, not exactly one`);
  }
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value))
    fail(`is not the const ${JSON.stringify(schema.const)}`);
  if (
    Array.isArray(schema.enum) &&
    !schema.enum.some((item) => JSON.stringify(item) === JSON.stringify(value))
  )
    fail('is not in the enum');
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((type) => hasType(value, type))) fail(`is not of type ${types.join('|')}`);
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength)
      fail(`is shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === 'number' && length > schema.maxLength)
      fail(`is longer than ${schema.maxLength}`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value))
      fail(`does not match ${schema.pattern}`);
    const format = typeof schema.format === 'string' ? formats[schema.format] : undefined;
    if (format !== undefined && !format.test(value))
      fail(`is not a valid ${String(schema.format)}`);
    if (schema.format === 'date-time' && Number.isNaN(Date.parse(value)))
      fail('is not a real date-time');
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      fail(`is below ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      fail(`is above ${schema.maximum}`);
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum)
      fail(`is not above ${schema.exclusiveMinimum}`);
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum)
      fail(`is not below ${schema.exclusiveMaximum}`);
    if (
      typeof schema.multipleOf === 'number' &&
      Math.abs(value / schema.multipleOf - Math.round(value / schema.multipleOf)) > 1e-9
    )
      fail(`is not a multiple of ${schema.multipleOf}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems)
      fail(`has fewer than ${schema.minItems} items`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
      fail(`has more than ${schema.maxItems} items`);
    if (
      schema.uniqueItems === true &&
      new Set(value.map((item) => JSON.stringify(item))).size !== value.length
    )
      fail('has duplicate items');
    if (
      schema.items === false &&
      Array.isArray(schema.prefixItems) &&
      value.length > schema.prefixItems.length
    )
      fail('has items past its prefixItems');
    const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as Schema[]) : [];
    for (const [index, item] of value.entries()) {
      const itemSchema =
        index < prefix.length ? prefix[index] : (schema.items as Schema | undefined);
      if (itemSchema !== undefined)
        errors.push(...schemaErrors(item, itemSchema, root, `${path}[${index}]`));
    }
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required ?? []) as string[])
      if (!(key in object)) fail(`misses required property ${key}`);
    for (const [key, item] of Object.entries(object)) {
      const propertySchema = properties[key] ?? (schema.additionalProperties as Schema | undefined);
      if (propertySchema !== undefined)
        errors.push(...schemaErrors(item, propertySchema, root, `${path}.${key}`));
    }
  }
  return errors;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}

function lookup(root: Schema, reference: string): Schema {
  let node: unknown = root;
  for (const key of reference
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== ''))
    node = (node as Record<string, unknown>)[key];
  if (node === undefined) throw new Error(`unresolvable $ref ${reference}`);
  return node as Schema;
}
