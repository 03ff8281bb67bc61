/** The spec's "Extra sampling parameters", accepted by /v1/responses and /v1/chat/completions. */
export interface ExtraSamplingParams {
  use_beam_search?: boolean;
  /** 1 to the vocabulary size. */
  top_k?: number;
  /** 0.0 to 1.0, relative to the top token's probability. */
  min_p?: number;
  /** From 1.0. */
  repetition_penalty?: number;
  length_penalty?: number;
  stop_token_ids?: number[];
  include_stop_str_in_output?: boolean;
  ignore_eos?: boolean;
  /** 0 to max_tokens. */
  min_tokens?: number;
  skip_special_tokens?: boolean;
  spaces_between_special_tokens?: boolean;
  truncate_prompt_tokens?: number;
  prompt_logprobs?: number;
  allowed_token_ids?: number[];
  bad_words?: string[];
}

/** Sampling parameters shared by both text endpoints. */
export interface SamplingParams extends ExtraSamplingParams {
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
}
