import { z } from 'zod';
import type { UpstreamTokens } from '../upstream-protocol.js';
import { tokenizeBodyInvalid } from '../tokenize-body-invalid.js';

/** vLLM's TokenizeResponse. */
const vllmTokenizeSchema = z.looseObject({
  tokens: z.array(z.int().min(0)),
  max_model_len: z.int().min(1).optional(),
});

/** The token ids and context window of vLLM's `/tokenize` answer; any other shape is the upstream's failure. */
export function readTokenizeUpstreamResponse(body: unknown): UpstreamTokens {
  const parsed = vllmTokenizeSchema.safeParse(body);
  if (parsed.success) return { tokens: parsed.data.tokens, maxModelLen: parsed.data.max_model_len };
  throw tokenizeBodyInvalid(parsed.error);
}
