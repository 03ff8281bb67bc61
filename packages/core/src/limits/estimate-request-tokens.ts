import type { Endpoint } from '../catalogue/catalogue-types.js';

/** Output tokens reserved for a text generation request that names no maximum (config `limits.default_max_tokens`). */
export const defaultMaxTokens = 1024;

// The endpoints whose answer is generated text, the only ones that reserve output tokens.
const textGenerationEndpoints: ReadonlySet<Endpoint | undefined> = new Set<Endpoint>(['chat', 'responses']);

// The first maximum the body names; chat takes max_tokens or max_completion_tokens, responses max_output_tokens.
const maxTokensField = /"(?:max_tokens|max_completion_tokens|max_output_tokens)"\s*:\s*(\d+)/;

const dataUrlStart = 'data:';

/** Characters of the body outside base64 data URLs (an image's bytes are not prompt text). */
function textCharacters(body: string): number {
  let characters = body.length;
  let from = body.indexOf(dataUrlStart);
  while (from !== -1) {
    const end = body.indexOf('"', from);
    if (end === -1) break;
    characters -= end - from;
    from = body.indexOf(dataUrlStart, end);
  }
  return characters;
}

/** The prompt part of estimateRequestTokens: the body's text characters divided by 4. */
export function estimatePromptTokens(body: string | undefined): number {
  return body === undefined ? 0 : Math.ceil(textCharacters(body) / 4);
}

/**
 * Tokens to reserve for a request before its upstream call: the request's text characters divided by
 * 4 (the usual average for English BPE tokenizers; the JSON keys and punctuation counted with it cover
 * the chat template's own tokens), plus, for text generation, the `max_tokens` it names or
 * `defaultMax` (for the catalogue endpoint the route's contract names). A scan of the raw text without parsing it, because it runs before the handler parses
 * the body and must stay cheap on 100 MiB image bodies; the reservation is an estimate only, replaced
 * by the upstream's reported usage when the request settles.
 */
export function estimateRequestTokens(endpoint: Endpoint | undefined, body: string | undefined, defaultMax: number = defaultMaxTokens): number {
  const promptTokens = estimatePromptTokens(body);
  if (!textGenerationEndpoints.has(endpoint)) return promptTokens;
  const named = body === undefined ? undefined : maxTokensField.exec(body)?.[1];
  return promptTokens + (named === undefined ? defaultMax : Number(named));
}
