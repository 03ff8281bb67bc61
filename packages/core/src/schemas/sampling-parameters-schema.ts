import { z } from 'zod';

const tokenId = z.int().min(0);

/**
 * The spec's "extra sampling parameters" (responses and chat completions), as a shape to spread into a
 * strict request object. Bounds are the spec's; vLLM's wider ones (top_k -1, truncate_prompt_tokens -1)
 * are not offered because the spec does not list them.
 */
export const samplingParametersShape = {
  use_beam_search: z.boolean().optional(),
  /** 1 to vocabulary size; the vocabulary bound is the model server's to check. */
  top_k: z.int().min(1).optional(),
  min_p: z.number().min(0).max(1).optional(),
  repetition_penalty: z.number().min(1).optional(),
  length_penalty: z.number().min(0).optional(),
  stop_token_ids: z.array(tokenId).optional(),
  include_stop_str_in_output: z.boolean().optional(),
  ignore_eos: z.boolean().optional(),
  /** 0 to max_tokens (checked by `checkSamplingParameters`). */
  min_tokens: z.int().min(0).optional(),
  skip_special_tokens: z.boolean().optional(),
  spaces_between_special_tokens: z.boolean().optional(),
  /** 1 to the model's context window (the window is checked once the model is known). */
  truncate_prompt_tokens: z.int().min(1).optional(),
  prompt_logprobs: z.int().min(0).optional(),
  // vLLM refuses an empty allow-list, so refuse it here with the field named.
  allowed_token_ids: z.array(tokenId).min(1).optional(),
  bad_words: z.array(z.string().min(1)).optional(),
} as const;

export type SamplingParameters = z.output<z.ZodObject<typeof samplingParametersShape>>;

/** The names in `samplingParametersShape`, for code that copies them between request forms. */
export const samplingParameterNames = Object.keys(samplingParametersShape) as ReadonlyArray<
  keyof SamplingParameters
>;

/** Cross-field rules of the sampling parameters, for a request schema's superRefine. */
export function checkSamplingParameters(
  value: SamplingParameters & { stream?: boolean },
  maxTokens: { name: string; value: number | undefined },
  context: z.RefinementCtx,
): void {
  if (
    value.min_tokens !== undefined &&
    maxTokens.value !== undefined &&
    value.min_tokens > maxTokens.value
  ) {
    context.addIssue({
      code: 'custom',
      path: ['min_tokens'],
      input: value.min_tokens,
      message: `min_tokens must be at most ${maxTokens.name} (${maxTokens.value})`,
    });
  }
  // vLLM refuses prompt log-probabilities on a stream: a stream has no place to carry them.
  if (value.prompt_logprobs !== undefined && value.stream === true) {
    context.addIssue({
      code: 'custom',
      path: ['prompt_logprobs'],
      input: value.prompt_logprobs,
      message: 'prompt_logprobs cannot be used with stream: true',
    });
  }
}
