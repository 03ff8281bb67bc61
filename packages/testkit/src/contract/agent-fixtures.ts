import { expect } from 'vitest';
import { z } from 'zod';

/** Text only the tool knows: an answer that contains it came from the tool's result. */
export const trackingCode = 'TRK-58213';

export const orderToolName = 'lookup_order';
export const orderToolDescription = 'Looks up an order by its id and returns its delivery status.';
export const orderToolParameters = z.object({
  orderId: z.string().describe('the order id, e.g. A-1001'),
});

export function lookupOrder({ orderId }: z.infer<typeof orderToolParameters>): string {
  return `Order ${orderId}: delivered, tracking code ${trackingCode}`;
}

export const orderQuestion = 'Where is my order A-1001? Use the lookup_order tool.';
export const followUpQuestion = 'Check order A-1001 once more and tell me its tracking code.';

/** Types, required properties, an enum, an array and a nested object: what structured output must honour. */
export const movieSchema = z.object({
  title: z.string(),
  year: z.number().int(),
  genres: z.array(z.string()),
  rating: z.enum(['G', 'PG', 'R']),
  director: z.object({ name: z.string(), born: z.number().int() }),
});

export const moviePrompt = 'Describe a classic science fiction film as structured data.';

/** Asserts that a value a client library parsed is valid for the schema, naming the failing paths. */
export function expectValid<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  expect(
    parsed.success,
    `${JSON.stringify(value)}\n${parsed.success ? '' : z.prettifyError(parsed.error)}`,
  ).toBe(true);
  return parsed.data as z.infer<T>;
}
