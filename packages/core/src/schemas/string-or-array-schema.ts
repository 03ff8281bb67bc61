import { z } from 'zod';
import { inputForms } from './input-forms.js';

/**
 * `string | T[]` whose errors name the exact element at fault (`messages[2].content[0].image_url.url`).
 * A plain `z.union` reports any failure inside the array as one "Invalid input" on the union itself,
 * which would leave a client guessing which part of a long message list is wrong.
 */
export function stringOrArraySchema<Item extends z.ZodType>(
  array: z.ZodArray<Item>,
  string: z.ZodString = z.string(),
) {
  const schema = z.unknown().transform((value, context): string | z.output<Item>[] => {
    if (value === undefined || (typeof value !== 'string' && !Array.isArray(value))) {
      context.addIssue({
        code: 'invalid_type',
        expected: 'string',
        input: value,
        message: 'expected a string or an array',
      });
      return z.NEVER;
    }
    const result = typeof value === 'string' ? string.safeParse(value) : array.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) context.addIssue({ ...issue });
    return z.NEVER;
  });
  inputForms.set(schema, [string, array]);
  return schema;
}
