import { z } from 'zod';

/*
 * What the gateway reads of a 2xx chat completion from any OpenAI-compatible model server (testkit's
 * recorded payloads): only the fields it uses are validated, and those servers commonly leave out may
 * be absent or null (docs/design.md, "Tolerance"). A wrong type in a used field is still the upstream's
 * failure (502), its JSON path in the error's cause.
 * Here rather than in protocols/openai, whose reader applies it, because the transforms that shape the
 * client's answer take its output type, and protocols/ sits above transforms/.
 */

const count = z.int().min(0);
// A count that is absent or null reads as 0: a server that leaves one out has nothing to charge for it.
const countOrZero = count.nullish().transform((value) => value ?? 0);

export const upstreamUsageSchema = z.looseObject({
  prompt_tokens: countOrZero,
  completion_tokens: count.nullish().transform((value) => value ?? undefined),
  total_tokens: count.nullish().transform((value) => value ?? undefined),
  prompt_tokens_details: z.looseObject({ cached_tokens: count.nullish() }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: count.nullish() }).nullish(),
});

const upstreamMessageSchema = z.looseObject({
  content: z.string().nullish(),
  // `reasoning` from vLLM PR #27752 on, `reasoning_content` before it (and in SGLang,
  // llama.cpp and Ollama's `reasoning` alike).
  reasoning: z.string().nullish(),
  reasoning_content: z.string().nullish(),
  // Old vLLM always sends [], newer vLLM and most servers leave the key out when there is none.
  tool_calls: z.array(z.unknown()).nullish(),
});

const upstreamChoiceSchema = z.looseObject({
  // TGI and some older servers number choices themselves or not at all: the position is the fallback.
  index: count.nullish(),
  message: upstreamMessageSchema,
  finish_reason: z.string().nullish(),
  // vLLM: the stop token id or stop string; SGLang says `matched_stop` instead, which is not read.
  stop_reason: z.union([z.int(), z.string()]).nullish(),
  // Passed on as the upstream sent it; null when it sent none (llama.cpp and Ollama leave it out).
  logprobs: z.unknown().optional(),
});

/** The parts of an upstream chat completion the gateway reads; other keys are ignored. */
export const upstreamChatCompletionSchema = z.looseObject({
  // Unix seconds; a server that writes a float (or nothing) gets the gateway's clock or the whole seconds.
  created: z
    .number()
    .min(0)
    .nullish()
    .transform((value) => (value == null ? undefined : Math.floor(value))),
  choices: z.array(upstreamChoiceSchema).min(1, { error: 'no choices' }),
  usage: upstreamUsageSchema.nullish(),
  // Only echoed, never used: a value of another type is dropped rather than failing the answer.
  system_fingerprint: z.string().nullish().catch(undefined),
});

export type UpstreamChatCompletion = z.output<typeof upstreamChatCompletionSchema>;
export type UpstreamUsage = z.output<typeof upstreamUsageSchema>;
