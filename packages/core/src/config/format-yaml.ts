// YAML's plain scalars exclude these words and anything that reads as a number, so they are quoted.
const reservedWords = /^(?:true|false|yes|no|on|off|null|~)$/i;
const plainString = /^[A-Za-z_/][A-Za-z0-9_./:@-]*$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function scalar(value: unknown): string {
  if (typeof value === 'string')
    return plainString.test(value) && !reservedWords.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return 'null';
}

// Arrays of scalars read best on one line; a JSON string is also a valid YAML double-quoted scalar.
function flowList(values: readonly unknown[]): string {
  return `[${values.map(scalar).join(', ')}]`;
}

function isScalarList(value: unknown): value is readonly unknown[] {
  return (
    Array.isArray(value) && value.every((item) => !isPlainObject(item) && !Array.isArray(item))
  );
}

function mapping(value: Record<string, unknown>, indent: string): string[] {
  return Object.entries(value).flatMap(([key, item]) => {
    const name = scalar(key);
    if (isScalarList(item)) return [`${indent}${name}: ${flowList(item)}`];
    if (isPlainObject(item) || Array.isArray(item))
      return [`${indent}${name}:`, ...block(item, `${indent}  `)];
    return [`${indent}${name}: ${scalar(item)}`];
  });
}

function sequence(values: readonly unknown[], indent: string): string[] {
  return values.flatMap((item) => {
    if (isPlainObject(item)) {
      const [first = '', ...rest] = mapping(item, `${indent}  `);
      return [`${indent}- ${first.trimStart()}`, ...rest];
    }
    if (isScalarList(item)) return [`${indent}- ${flowList(item)}`];
    return [`${indent}- ${scalar(item)}`];
  });
}

function block(value: unknown, indent: string): string[] {
  if (isPlainObject(value)) return mapping(value, indent);
  if (Array.isArray(value)) return sequence(value, indent);
  return [`${indent}${scalar(value)}`];
}

/**
 * A JSON-like value as block-style YAML, for the examples of the configuration reference. Covers what
 * the examples hold (mappings, lists, strings, numbers, booleans); lists of scalars are written inline.
 */
export function formatYaml(value: Record<string, unknown>): string {
  return `${mapping(value, '').join('\n')}\n`;
}
