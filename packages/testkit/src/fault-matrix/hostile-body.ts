import fc from 'fast-check';

/** A request body that no route may accept: what row 1 sends, with the content type it claims. */
export interface HostileBody {
  kind: string;
  body: string | Uint8Array<ArrayBuffer>;
  contentType: string;
}

const json = 'application/json';
const encoder = new TextEncoder();

/** A value of another JSON type than `value` (never null: optional fields accept null). */
function wrongTypeFor(value: unknown): fc.Arbitrary<unknown> {
  if (typeof value === 'string') return fc.constantFrom<unknown>(1, true, [{}], { a: 1 });
  if (typeof value === 'number') return fc.constantFrom<unknown>('1', true, [{}], { a: 1 });
  if (typeof value === 'boolean') return fc.constantFrom<unknown>('true', 0, [{}], { a: 1 });
  if (Array.isArray(value)) return fc.constantFrom<unknown>('x', 1, true, { a: 1 });
  return fc.constantFrom<unknown>('x', 1, true, [[{}]]);
}

// A top-level null counts as absent (core's nullsAsAbsent: clients send null for unset fields), so an
// extra field or a wrong type is never null here.

/**
 * Bodies that break one route's valid body (fault-matrix row 1): a field of the wrong type, an extra
 * field (schemas are strict), a duplicate key whose last value is wrong, truncation, invalid UTF-8,
 * arbitrary JSON and bytes, and a valid body under a wrong content type.
 */
export function hostileBody(valid: Record<string, unknown>): fc.Arbitrary<HostileBody> {
  const text = JSON.stringify(valid);
  const keys = Object.keys(valid);
  const mutated = fc.constantFrom(...keys).chain((key) =>
    wrongTypeFor(valid[key]).map((wrong) => ({
      kind: `wrong type of ${key}`,
      body: JSON.stringify({ ...valid, [key]: wrong }),
      contentType: json,
    })),
  );
  const extra = fc
    .tuple(fc.stringMatching(/^[a-z_]{1,12}$/), fc.jsonValue())
    .filter(([key, value]) => !keys.includes(key) && value !== null)
    .map(([key, value]) => ({
      kind: 'extra field',
      body: JSON.stringify({ ...valid, [key]: value }),
      contentType: json,
    }));
  const duplicate = fc.constantFrom(...keys).chain((key) =>
    wrongTypeFor(valid[key]).map((wrong) => ({
      kind: `duplicate ${key}`,
      body: `${text.slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(wrong)}}`,
      contentType: json,
    })),
  );
  const truncated = fc
    .nat({ max: text.length - 1 })
    .map((length) => ({ kind: 'truncated', body: text.slice(0, length), contentType: json }));
  const invalidUtf8 = fc
    .tuple(
      fc.constantFrom('prefix', 'suffix', 'instead of the closing brace'),
      fc.constantFrom([0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98]),
    )
    .map(([where, bytes]) => {
      // Outside every string: a decoder turns the bytes into U+FFFD, which inside a string would be valid.
      const body = encoder.encode(text);
      const parts =
        where === 'prefix'
          ? [...bytes, ...body]
          : where === 'suffix'
            ? [...body, ...bytes]
            : [...body.subarray(0, -1), ...bytes];
      return { kind: `invalid UTF-8 (${where})`, body: new Uint8Array(parts), contentType: json };
    });
  const anyJson = fc.json().map((body) => ({ kind: 'arbitrary JSON', body, contentType: json }));
  const anyBytes = fc
    .uint8Array({ maxLength: 300 })
    .map((body) => ({ kind: 'arbitrary bytes', body, contentType: json }));
  const wrongContentType = fc
    .constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonl',
      'application/json-patch+json',
    )
    .map((contentType) => ({ kind: 'wrong content type', body: text, contentType }));
  return fc.oneof(
    mutated,
    extra,
    duplicate,
    truncated,
    invalidUtf8,
    anyJson,
    anyBytes,
    wrongContentType,
  );
}

/** Bodies too odd for an arbitrary: empty, 200,000-deep nesting (arrays and objects). */
export function fixedHostileBodies(): HostileBody[] {
  const depth = 200_000;
  return [
    { kind: 'empty', body: '', contentType: json },
    { kind: 'deep arrays', body: `${'['.repeat(depth)}${']'.repeat(depth)}`, contentType: json },
    {
      kind: 'deep objects',
      body: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
      contentType: json,
    },
    {
      kind: 'deep inside a field',
      body: `{"model":"gamma-m3","input":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      contentType: json,
    },
  ];
}
