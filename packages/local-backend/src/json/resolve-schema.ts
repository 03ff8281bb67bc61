export type SchemaObject = Record<string, unknown>;

const maxHops = 32;
// Combinators nested with no value in between; small, because allOf resolves every part at each level.
const maxNesting = 8;

/** A JSON Schema as an object: `true` and a missing schema allow anything, and read as `{}`. */
export function asSchema(schema: unknown): SchemaObject {
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema)
    ? (schema as SchemaObject)
    : {};
}

/**
 * Resolves the subschemas of one root schema: `$ref` (into `$defs` / `definitions` by JSON pointer, or `#`
 * itself), `allOf` (merged) and `anyOf` / `oneOf` (the first usable branch) taken away, so what is left
 * describes one value directly. Keywords beside a `$ref` or a combinator (a `description`, a `default`) are
 * kept, as draft 2020-12 reads them.
 */
export class SchemaResolver {
  // Every resolution step spends one unit: a schema built to explode (allOf of many references to itself)
  // stops here instead of holding the server; real schemas use a small fraction of it.
  private budget = 100_000;

  constructor(private readonly root: unknown) {}

  resolve(schema: unknown, depth: number, nesting = 0): SchemaObject {
    let current = asSchema(schema);
    // A reference cycle through $ref, allOf or anyOf alone (no value in between) would never end: both the hops
    // here and the nesting of combinators are bounded; the caller's depth bound covers recursion through values.
    this.budget -= 1;
    if (nesting > maxNesting || this.budget < 0) return {};
    for (let hops = 0; hops < maxHops; hops += 1) {
      this.budget -= 1;
      if (this.budget < 0) return {};
      const { $ref: reference, allOf, anyOf, oneOf, ...rest } = current;
      if (typeof reference === 'string') {
        current = {
          ...asSchema(resolvePointer(this.root, reference)),
          ...rest,
          ...combinators({ allOf, anyOf, oneOf }),
        };
      } else if (Array.isArray(allOf)) {
        current = allOf.reduce<SchemaObject>(
          (merged, part) => mergeSchemas(merged, this.resolve(part, depth, nesting + 1)),
          {
            ...rest,
            ...combinators({ anyOf, oneOf }),
          },
        );
      } else if (Array.isArray(anyOf) || Array.isArray(oneOf)) {
        const branches: unknown[] = Array.isArray(anyOf) ? anyOf : (oneOf as unknown[]);
        current = mergeSchemas(
          rest,
          firstUsable(branches, (branch) => this.resolve(branch, depth, nesting + 1), depth),
        );
      } else {
        return current;
      }
    }
    return current;
  }
}

function combinators(parts: Record<string, unknown>): SchemaObject {
  return Object.fromEntries(Object.entries(parts).filter(([, value]) => value !== undefined));
}

/**
 * The branch to produce a value for: the first that is not only `null` (zod's nullable is `anyOf [X, null]`)
 * and not `not`; past the depth bound the first that needs no nesting, so a recursive union ends. Branches are
 * resolved one at a time, only as far as the choice needs.
 */
function firstUsable(
  branches: readonly unknown[],
  resolve: (branch: unknown) => SchemaObject,
  depth: number,
): SchemaObject {
  let first: SchemaObject | undefined;
  let firstUsableBranch: SchemaObject | undefined;
  for (const raw of branches) {
    const branch = resolve(raw);
    first ??= branch;
    const usable =
      branch.not === undefined &&
      !(branch.type === 'null' || ('const' in branch && branch.const === null));
    if (!usable) continue;
    if (depth < shallowDepth) return branch;
    firstUsableBranch ??= branch;
    if (
      !['object', 'array'].includes(String(branch.type)) &&
      branch.properties === undefined &&
      branch.items === undefined
    )
      return branch;
  }
  return firstUsableBranch ?? first ?? {};
}

/** Past this nesting depth optional properties and extra array items are left out, so recursive schemas end. */
export const shallowDepth = 6;

/** Two schemas that must both hold, combined keyword by keyword (enough for what generators emit). */
function mergeSchemas(left: SchemaObject, right: SchemaObject): SchemaObject {
  const merged: SchemaObject = { ...left, ...right };
  if (left.properties !== undefined || right.properties !== undefined)
    merged.properties = { ...asSchema(left.properties), ...asSchema(right.properties) };
  if (Array.isArray(left.required) || Array.isArray(right.required)) {
    merged.required = [
      ...new Set([
        ...(Array.isArray(left.required) ? left.required : []),
        ...(Array.isArray(right.required) ? right.required : []),
      ]),
    ];
  }
  for (const key of ['minimum', 'minLength', 'minItems', 'exclusiveMinimum'] as const) {
    if (typeof left[key] === 'number' && typeof right[key] === 'number')
      merged[key] = Math.max(left[key], right[key]);
  }
  for (const key of ['maximum', 'maxLength', 'maxItems', 'exclusiveMaximum'] as const) {
    if (typeof left[key] === 'number' && typeof right[key] === 'number')
      merged[key] = Math.min(left[key], right[key]);
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
