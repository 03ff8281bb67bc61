import { z } from 'zod';

/** Body of POST /tokenize (spec): vLLM's completion form. */
export const tokenizeRequestSchema = z.strictObject({
  model: z.string().min(1),
  prompt: z.string(),
  add_special_tokens: z.boolean().optional(),
});

export type TokenizeRequest = z.infer<typeof tokenizeRequestSchema>;
