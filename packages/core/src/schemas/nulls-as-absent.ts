import { z } from 'zod';

/** The value with its top-level null-valued keys removed (a copy; the value itself when it has none). */
function withoutTopLevelNulls(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    if (field !== null) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    delete copy[key];
  }
  return copy ?? value;
}

/**
 * Reads a top-level `null` as "not given", as the completion API does (`"temperature": null` is the
 * default temperature). Without this, clients that serialize every optional field as null would be
 * refused; the key is removed so the upstream never sees a null where vLLM expects a bool.
 */
export function nullsAsAbsent<Schema extends z.ZodType>(schema: Schema) {
  return z.preprocess(withoutTopLevelNulls, schema);
}
