export type SchemaObject = Record<string, unknown>;

/** A JSON Schema as an object: `true` and a missing schema allow anything, and read as `{}`. */
export function asSchema(schema: unknown): SchemaObject {
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? (schema as SchemaObject) : {};
}

/**
 * The schema with `$ref` (into `$defs` / `definitions` by JSON pointer, or `#` itself), `allOf` (merged) and
 * `anyOf` / `oneOf` (the first usable branch) taken away, so what is left describes one value directly.
 * Keywords beside a `$ref` or a combinator (a `description`, a `default`) are kept, as draft 2020-12 reads them.
 */
export function resolveSchema(schema: unknown, root: unknown, depth = 0): SchemaObject {
  let current = asSchema(schema);
  // A reference cycle with nothing else in it would never end; the caller's depth bound covers real recursion.
  for (let hops = 0; hops < 32; hops += 1) {
    const { $ref: reference, allOf, anyOf, oneOf, ...rest } = current;
    if (typeof reference === 'string') {
      current = { ...asSchema(resolvePointer(root, reference)), ...rest, ...combinators({ allOf, anyOf, oneOf }) };
    } else if (Array.isArray(allOf)) {
      current = allOf.reduce<SchemaObject>((merged, part) => mergeSchemas(merged, resolveSchema(part, root, depth)), { ...rest, ...combinators({ anyOf, oneOf }) });
    } else if (Array.isArray(anyOf) || Array.isArray(oneOf)) {
      const branches = (Array.isArray(anyOf) ? anyOf : (oneOf as unknown[])).map((branch) => resolveSchema(branch, root, depth));
      current = mergeSchemas(rest, firstUsable(branches, depth));
    } else {
      return current;
    }
  }
  return current;
}

function combinators(parts: Record<string, unknown>): SchemaObject {
  return Object.fromEntries(Object.entries(parts).filter(([, value]) => value !== undefined));
}

/**
 * The branch to produce a value for: the first that is not only `null` (zod's nullable is `anyOf [X, null]`)
 * and not `not`; past the depth bound the first that needs no nesting, so a recursive union ends.
 */
function firstUsable(branches: SchemaObject[], depth: number): SchemaObject {
  const usable = branches.filter((branch) => branch.not === undefined && !(branch.type === 'null' || ('const' in branch && branch.const === null)));
  const candidates = usable.length > 0 ? usable : branches;
  if (depth >= shallowDepth) {
    const flat = candidates.find((branch) => !['object', 'array'].includes(String(branch.type)) && branch.properties === undefined && branch.items === undefined);
    if (flat !== undefined) return flat;
  }
  return candidates[0] ?? {};
}

/** Past this nesting depth optional properties and extra array items are left out, so recursive schemas end. */
export const shallowDepth = 6;

/** Two schemas that must both hold, combined keyword by keyword (enough for what generators emit). */
function mergeSchemas(left: SchemaObject, right: SchemaObject): SchemaObject {
  const merged: SchemaObject = { ...left, ...right };
  if (left.properties !== undefined || right.properties !== undefined) merged.properties = { ...asSchema(left.properties), ...asSchema(right.properties) };
  if (Array.isArray(left.required) || Array.isArray(right.required)) {
    merged.required = [...new Set([...(Array.isArray(left.required) ? left.required : []), ...(Array.isArray(right.required) ? right.required : [])])];
  }
  for (const key of ['minimum', 'minLength', 'minItems', 'exclusiveMinimum'] as const) {
    if (typeof left[key] === 'number' && typeof right[key] === 'number') merged[key] = Math.max(left[key], right[key]);
  }
  for (const key of ['maximum', 'maxLength', 'maxItems', 'exclusiveMaximum'] as const) {
    if (typeof left[key] === 'number' && typeof right[key] === 'number') merged[key] = Math.min(left[key], right[key]);
  }
  return merged;
}

/** `#`, `#/$defs/Name`, `#/definitions/Name` or any JSON pointer into the root schema; undefined when it points nowhere. */
function resolvePointer(root: unknown, reference: string): unknown {
  if (!reference.startsWith('#')) return undefined;
  const path = reference.slice(1);
  if (path === '' || path === '/') return root;
  let node: unknown = root;
  for (const raw of path.split('/').slice(1)) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
