import type { TokenizeParams as CoreTokenizeParams, TokenizeResponse } from '@infergate/core';
import type { TokenizeModelId } from './model-id.js';

export interface TokenizeParams extends Omit<CoreTokenizeParams, 'model'> {
  model: TokenizeModelId;
}

/** The spec's tokenize result; `max_model_len` is the model's context window. */
export type { TokenizeResponse };
