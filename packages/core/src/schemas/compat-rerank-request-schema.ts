import { z } from 'zod';
import { maxRerankDocuments, tooManyItems } from './item-bounds.js';

/** Body of POST /compat/v2/rerank (spec), shaped after the Cohere v2 rerank request. */
export const compatRerankRequestSchema = z.strictObject({
  model: z.string().min(1),
  query: z.string().min(1),
  documents: z.array(z.string()).min(1).max(maxRerankDocuments, tooManyItems),
  top_n: z.int().min(1).optional(),
  max_tokens_per_doc: z.int().min(1).optional(),
});

export type CompatRerankRequest = z.infer<typeof compatRerankRequestSchema>;
