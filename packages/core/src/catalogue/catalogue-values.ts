// The value lists behind the catalogue's types (catalogue-types.ts derives ModelKind and ReasoningEffort
// from them), for the schemas that check them: each list is written here and nowhere else.

/** What a catalogue model is for; decides which endpoints may use it. */
export const modelKinds = [
  'text',
  'embedding',
  'rerank',
  'image-generation',
  'image-edit',
] as const;

/** The spec's reasoning_effort values. */
export const reasoningEfforts = ['low', 'high', 'max'] as const;

/**
 * Why a request left one model of a virtual model's list for the next: connection (refused or reset
 * before an answer), timeout (before the first byte reached the client), rate_limited (429),
 * unavailable (502, 503, 504, or no healthy endpoint), model_not_configured (no upstream serves it),
 * server_error (any other 5xx), context_length (the prompt is longer than the model's context window,
 * known before the call).
 */
export const fallbackReasons = [
  'connection',
  'timeout',
  'rate_limited',
  'unavailable',
  'model_not_configured',
  'server_error',
  'context_length',
] as const;

/** The failures that move to the next model when a virtual model does not say (`on`). */
export const defaultFallbackReasons = [
  'connection',
  'timeout',
  'rate_limited',
  'unavailable',
  'model_not_configured',
] as const satisfies ReadonlyArray<(typeof fallbackReasons)[number]>;
