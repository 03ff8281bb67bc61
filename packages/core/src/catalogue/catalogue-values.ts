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
