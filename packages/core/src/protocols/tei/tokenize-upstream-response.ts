import { z } from 'zod';
import type { UpstreamTokens } from '../upstream-protocol.js';
import { tokenizeBodyInvalid } from '../tokenize-body-invalid.js';

/** TEI's TokenizeResponse: one list of `{id, text, special, start, stop}` per input; one input is sent. */
const teiTokenizeSchema = z.tuple([z.array(z.looseObject({ id: z.int().min(0) }))]);

/** The token ids of TEI's `/tokenize` answer (TEI reports no context window); any other shape is the upstream's failure. */
export function readTokenizeUpstreamResponse(body: unknown): UpstreamTokens {
  const parsed = teiTokenizeSchema.safeParse(body);
  if (parsed.success)
    return { tokens: parsed.data[0].map((token) => token.id), maxModelLen: undefined };
  throw tokenizeBodyInvalid(parsed.error);
}
