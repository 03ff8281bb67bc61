import { z } from 'zod';
import { GatewayError } from '../../errors/gateway-error.js';
import { upstreamBodyIssue } from '../../transforms/upstream-body-issue.js';
import type { UpstreamProtocol } from '../../handlers/ports.js';

const tokenIdSchema = z.int().min(0);

/** vLLM's TokenizeResponse (protocols.md 3.1). */
const vllmTokenizeSchema = z.looseObject({ tokens: z.array(tokenIdSchema), max_model_len: z.int().min(1).optional() });

/** TEI's TokenizeResponse: one list of `{id, text, special, start, stop}` per input; one input is sent. */
const teiTokenizeSchema = z.tuple([z.array(z.looseObject({ id: tokenIdSchema }))]);

export interface UpstreamTokens {
  tokens: number[];
  /** The context window the upstream reports (vLLM only). */
  maxModelLen: number | undefined;
}

function unexpected(error: z.ZodError): GatewayError {
  return GatewayError.upstreamBodyInvalid('The model server answered with an unexpected tokenize body.', upstreamBodyIssue(error));
}

/** The token ids of an upstream `/tokenize` answer; any other shape is the upstream's failure. */
export function readTokenizeUpstreamResponse(protocol: UpstreamProtocol, body: unknown): UpstreamTokens {
  if (protocol === 'tei') {
    const parsed = teiTokenizeSchema.safeParse(body);
    if (parsed.success) return { tokens: parsed.data[0].map((token) => token.id), maxModelLen: undefined };
    throw unexpected(parsed.error);
  }
  const parsed = vllmTokenizeSchema.safeParse(body);
  if (parsed.success) return { tokens: parsed.data.tokens, maxModelLen: parsed.data.max_model_len };
  throw unexpected(parsed.error);
}
