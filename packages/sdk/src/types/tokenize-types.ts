import type { TokenizeResponse } from '@infergate/core';
import type { TokenizeModelId } from './model-id.js';

export interface TokenizeParams {
  model: TokenizeModelId;
  prompt: string;
  add_special_tokens?: boolean;
}

/** The spec's tokenize result; `max_model_len` is the model's context window. */
export type { TokenizeResponse };
