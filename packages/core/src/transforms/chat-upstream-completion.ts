import { z } from 'zod';
import { GatewayError } from '../errors/gateway-error.js';
import { mapUpstreamStatus } from '../errors/map-upstream-status.js';

const count = z.int().min(0);

export const upstreamUsageSchema = z.looseObject({
  prompt_tokens: count,
  completion_tokens: count.optional(),
  total_tokens: count.optional(),
  prompt_tokens_details: z.looseObject({ cached_tokens: count.nullish() }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: count.nullish() }).nullish(),
});

const upstreamMessageSchema = z.looseObject({
  content: z.string().nullish(),
  // protocols 1.1: `reasoning` from vLLM PR #27752 on, `reasoning_content` before it.
  reasoning: z.string().nullish(),
  reasoning_content: z.string().nullish(),
  tool_calls: z.array(z.unknown()).nullish(),
});

const upstreamChoiceSchema = z.looseObject({
  index: z.int().min(0).optional(),
  message: upstreamMessageSchema,
  finish_reason: z.string().nullish(),
  stop_reason: z.union([z.int(), z.string()]).nullish(),
  logprobs: z.unknown(),
  token_ids: z.array(z.int()).nullish(),
});

/** The parts of vLLM's chat completion (protocols 1.1) the gateway reads; other keys are ignored. */
export const upstreamChatCompletionSchema = z.looseObject({
  id: z.string().optional(),
  created: z.int().optional(),
  choices: z.array(upstreamChoiceSchema).min(1),
  usage: upstreamUsageSchema.nullish(),
  system_fingerprint: z.string().nullish(),
});

export type UpstreamChatCompletion = z.output<typeof upstreamChatCompletionSchema>;
export type UpstreamUsage = z.output<typeof upstreamUsageSchema>;

/**
 * The body of a 2xx upstream chat answer, or the GatewayError it amounts to: vLLM can answer an
 * error envelope with status 200 (protocols 1.5), and anything without choices is a failed upstream.
 */
export function readUpstreamChatCompletion(body: unknown): UpstreamChatCompletion {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const error = (body as { error: unknown }).error;
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    const status = typeof code === 'number' && code >= 400 && code <= 599 ? code : 502;
    throw mapUpstreamStatus(status, body, undefined);
  }
  const result = upstreamChatCompletionSchema.safeParse(body);
  if (!result.success) throw GatewayError.upstreamFailed('The model server answered with an unexpected body.');
  return result.data;
}
