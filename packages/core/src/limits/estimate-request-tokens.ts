import type { Endpoint } from '../catalogue/catalogue-types.js';
import { endpointRoutes } from '../catalogue/route-paths.js';
import { defaultMaxTokens } from '../config/resolve-gateway-config.js';

// The endpoints whose answer is generated text, the only ones that reserve output tokens.
const textGenerationEndpoints: ReadonlySet<Endpoint | undefined> = new Set(
  (Object.keys(endpointRoutes) as Endpoint[]).filter(
    (endpoint) => 'generatesText' in endpointRoutes[endpoint],
  ),
);

// The fields naming a maximum: chat takes max_tokens or max_completion_tokens, responses max_output_tokens.
const maxFieldStart = '"max_';
const maxFieldEnds = ['tokens"', 'completion_tokens"', 'output_tokens"'];

/**
 * The first maximum the body names (`"max_tokens": 16`, JSON whitespace around the colon), found by
 * scanning rather than by a regular expression: a match would allocate its array and substring on
 * every limited request.
 */
function namedMaxTokens(body: string): number | undefined {
  let from = body.indexOf(maxFieldStart);
  while (from !== -1) {
    const after = from + maxFieldStart.length;
    for (let index = 0; index < maxFieldEnds.length; index += 1) {
      const end = maxFieldEnds[index] as string;
      if (!body.startsWith(end, after)) continue;
      const value = numberAfterColon(body, after + end.length);
      if (value !== undefined) return value;
    }
    from = body.indexOf(maxFieldStart, after);
  }
  return undefined;
}

/** The non-negative integer after a colon at `at` (JSON whitespace around it), or undefined. */
export function numberAfterColon(body: string, at: number): number | undefined {
  let index = skipJsonSpace(body, at);
  if (body.charCodeAt(index) !== 0x3a) return undefined;
  index = skipJsonSpace(body, index + 1);
  let value = 0;
  const start = index;
  for (
    let code = body.charCodeAt(index);
    code >= 0x30 && code <= 0x39;
    code = body.charCodeAt(index)
  ) {
    value = value * 10 + (code - 0x30);
    index += 1;
  }
  return index === start ? undefined : value;
}

export function skipJsonSpace(body: string, at: number): number {
  let index = at;
  for (
    let code = body.charCodeAt(index);
    code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
    code = body.charCodeAt(index)
  )
    index += 1;
  return index;
}

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
 * Tokens to reserve for a request before its upstream call: its text characters divided by 4 (the usual
 * average for English BPE tokenizers; the JSON keys and punctuation cover the chat template's own
 * tokens), plus, for text generation, the `max_tokens` it names or `defaultMax`. A scan of the raw
 * text, since it runs before the body is parsed and must stay cheap on image bodies; the usage the
 * upstream reports replaces it when the request settles.
 */
export function estimateRequestTokens(
  endpoint: Endpoint | undefined,
  body: string | undefined,
  defaultMax: number = defaultMaxTokens,
): number {
  return estimatePromptTokens(body) + estimateOutputTokens(endpoint, body, defaultMax);
}

/** The output part of estimateRequestTokens: for text generation, the `max_tokens` named or `defaultMax`; else 0. */
export function estimateOutputTokens(
  endpoint: Endpoint | undefined,
  body: string | undefined,
  defaultMax: number = defaultMaxTokens,
): number {
  if (!textGenerationEndpoints.has(endpoint)) return 0;
  const named = body === undefined ? undefined : namedMaxTokens(body);
  return named ?? defaultMax;
}
