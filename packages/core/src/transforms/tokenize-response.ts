export interface TokenizeResponseOptions {
  tokens: readonly number[];
  /** The catalogue's context window of the model (docs/design.md: the gateway reports these). */
  maxModelLen: number;
}

/** The spec's tokenize result; `token_strs` is always null. */
export function tokenizeResponse(options: TokenizeResponseOptions) {
  return {
    count: options.tokens.length,
    max_model_len: options.maxModelLen,
    tokens: [...options.tokens],
    token_strs: null,
  };
}

export type TokenizeResponse = ReturnType<typeof tokenizeResponse>;
