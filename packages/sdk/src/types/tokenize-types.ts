import type { TokenizeModelId } from './model-id.js';

export interface TokenizeParams {
  model: TokenizeModelId;
  prompt: string;
  add_special_tokens?: boolean;
}

/** The spec's tokenize result. */
export interface TokenizeResponse {
  count: number;
  /** The model's context window, so callers can keep prompts within it. */
  max_model_len: number;
  tokens: number[];
  token_strs: null;
}
