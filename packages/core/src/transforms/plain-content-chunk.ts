/**
 * Where the parts of a plain content chunk lie in its text: the `"id"` and `"model"` string values
 * and the delta's `"content"` string value (start after the opening quote, end at the closing one).
 */
export interface PlainContentChunk {
  idStart: number;
  idEnd: number;
  modelStart: number;
  modelEnd: number;
  contentStart: number;
  contentEnd: number;
  /**
   * The content's text is its value and JSON.stringify's writing of it: no escapes and no surrogates
   * (JSON.stringify escapes lone ones).
   */
  contentVerbatim: boolean;
}

// vLLM's compact layout of a content delta (pydantic's model_dump_json: fixed key order, no spaces).
// Such chunks are nearly all of a stream; they carry no usage, error, reasoning or finish_reason.
// One anchored regex checks the whole text as JSON.parse would (strings without raw control
// characters, valid escapes, integers without leading zeros and short enough that JSON.stringify
// writes the same digits); irregexp runs it natively, much faster than a charCodeAt/startsWith walk.
const plainContentChunk =
  // eslint-disable-next-line no-control-regex -- raw control characters are what JSON strings may not hold
  /^\{"id":"[^"\\\x00-\x1f]*","object":"chat\.completion\.chunk","created":(?:0|[1-9][0-9]{0,14}),"model":"[^"\\\x00-\x1f]*","choices":\[\{"index":(?:0|[1-9][0-9]{0,14}),"delta":\{"content":"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"\},"logprobs":null,"finish_reason":null\}\]\}$/;
const maxPlainChunk = 4096;
const contentTail = '"},"logprobs":null,"finish_reason":null}]}';
// An escape or a lone surrogate (JSON.stringify escapes lone ones): the text is not written verbatim.
const notVerbatim = /\\|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The chunk when its text is exactly a content delta in vLLM's layout (and valid JSON); undefined for
 * anything else (role, reasoning, finish, usage, error, tool calls, other layouts), which the caller
 * parses. Reading these without JSON.parse and writing them without JSON.stringify is a visible share
 * of a stream's CPU.
 */
export function matchPlainContentChunk(text: string): PlainContentChunk | undefined {
  // A token's chunk is ~200 characters; longer ones are parsed, so the regex never backtracks far.
  if (text.length > maxPlainChunk || !plainContentChunk.test(text)) return undefined;
  // The id and model have no quotes (checked above), so the first quotes after them close them.
  const idStart = 7;
  const idEnd = text.indexOf('"', idStart);
  const modelStart = text.indexOf(',"model":"', idEnd) + 10;
  const modelEnd = text.indexOf('"', modelStart);
  const contentStart = text.indexOf('"content":"', modelEnd) + 11;
  const contentEnd = text.length - contentTail.length;
  const contentVerbatim = !notVerbatim.test(text.slice(contentStart, contentEnd));
  return { idStart, idEnd, modelStart, modelEnd, contentStart, contentEnd, contentVerbatim };
}

/** The delta's content as a string value. */
export function plainChunkContent(text: string, chunk: PlainContentChunk): string {
  const raw = text.slice(chunk.contentStart, chunk.contentEnd);
  return chunk.contentVerbatim ? raw : (JSON.parse(`"${raw}"`) as string);
}

/**
 * The chunk's text with the id and model values replaced by `idJson` and `modelJson` (JSON string
 * literals, quotes included): the same text as JSON.stringify of the parsed chunk with id and model
 * set, without parsing it (an escaped content is written again as JSON.stringify writes it).
 */
export function rewritePlainChunk(
  text: string,
  chunk: PlainContentChunk,
  idJson: string,
  modelJson: string,
): string {
  const head = `{"id":${idJson}${text.slice(chunk.idEnd + 1, chunk.modelStart - 1)}${modelJson}`;
  if (chunk.contentVerbatim) return `${head}${text.slice(chunk.modelEnd + 1)}`;
  const content = JSON.stringify(plainChunkContent(text, chunk));
  return `${head}${text.slice(chunk.modelEnd + 1, chunk.contentStart - 1)}${content}${text.slice(chunk.contentEnd + 1)}`;
}
