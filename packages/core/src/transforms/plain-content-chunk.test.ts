import { describe, expect, it } from 'vitest';
import {
  matchPlainContentChunk,
  plainChunkContent,
  rewritePlainChunk,
} from './plain-content-chunk.js';

const chunkText = (content: string, overrides: Record<string, unknown> = {}): string =>
  JSON.stringify({
    id: 'chatcmpl-fedcba98',
    object: 'chat.completion.chunk',
    created: 1730000000,
    model: 'upstream-model',
    choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }],
    ...overrides,
  });

const idJson = JSON.stringify('chatcmpl-00ff');
const modelJson = JSON.stringify('catalogue-model');

/** What the parsing path writes: JSON.parse, id and model set, JSON.stringify. */
function parsedRewrite(text: string): string {
  const chunk = JSON.parse(text) as Record<string, unknown>;
  chunk.id = 'chatcmpl-00ff';
  chunk.model = 'catalogue-model';
  return JSON.stringify(chunk);
}

describe('matchPlainContentChunk', () => {
  it.each([
    ['plain words', ' lorem'],
    ['empty content', ''],
    ['quotes and backslashes', 'say "hi" \\ there'],
    ['newlines and tabs', 'a\nb\tc\r'],
    ['the text of other fields', '","model":"evil","choices":[],"usage":{"prompt_tokens":1}'],
    ['non-ASCII and emoji', 'héllo 😀 世界'],
    ['control characters', '\u0001\u001f'],
    ['a lone surrogate', 'x\ud800y'],
  ])(
    'writes %s exactly as parse + stringify would, and reads the content value',
    (_name, content) => {
      const text = chunkText(content);
      const chunk = matchPlainContentChunk(text);
      expect(chunk).toBeDefined();
      if (chunk === undefined) return;
      expect(rewritePlainChunk(text, chunk, idJson, modelJson)).toBe(parsedRewrite(text));
      expect(plainChunkContent(text, chunk)).toBe(content);
    },
  );

  it('reads escapes that JSON.stringify would not write (\\u0041, \\/) and writes them as it would', () => {
    const text = chunkText('PLACEHOLDER').replace('PLACEHOLDER', '\\u0041\\/b\\u00e9');
    const chunk = matchPlainContentChunk(text);
    expect(chunk).toBeDefined();
    if (chunk === undefined) return;
    expect(plainChunkContent(text, chunk)).toBe('A/bé');
    expect(rewritePlainChunk(text, chunk, idJson, modelJson)).toBe(parsedRewrite(text));
  });

  it.each([
    [
      'a role delta',
      JSON.stringify({
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [
          {
            index: 0,
            delta: { role: 'assistant', content: '' },
            logprobs: null,
            finish_reason: null,
          },
        ],
      }),
    ],
    ['a finish_reason', chunkText('a').replace('"finish_reason":null', '"finish_reason":"stop"')],
    ['a usage field', chunkText('a', { usage: { prompt_tokens: 1, completion_tokens: 1 } })],
    ['a reasoning delta', chunkText('a').replace('{"content":"a"}', '{"reasoning_content":"a"}')],
    [
      'a second choice',
      chunkText('a').replace(
        '}]}',
        '},{"index":1,"delta":{"content":"b"},"logprobs":null,"finish_reason":null}]}',
      ),
    ],
    ['an escaped id', chunkText('a').replace('"chatcmpl-fedcba98"', '"chat\\u0063mpl"')],
    ['an escaped model', chunkText('a').replace('"upstream-model"', '"up\\"stream"')],
    ['spaces between tokens', chunkText('a').replace('"created":', '"created": ')],
    ['a 16-digit created', chunkText('a').replace('1730000000', '1730000000000000')],
    [
      'a created with a leading zero (invalid JSON)',
      chunkText('a').replace('1730000000', '01730000000'),
    ],
    ['a fractional created', chunkText('a').replace('1730000000', '1730000000.5')],
    ['a bad escape (invalid JSON)', chunkText('PLACEHOLDER').replace('PLACEHOLDER', 'a\\x')],
    [
      'a short \\u escape (invalid JSON)',
      chunkText('PLACEHOLDER').replace('PLACEHOLDER', 'a\\u12'),
    ],
    [
      'a raw newline in the content (invalid JSON)',
      chunkText('PLACEHOLDER').replace('PLACEHOLDER', 'a\nb'),
    ],
    [
      'an unterminated content (invalid JSON)',
      chunkText('a').slice(0, -'"},"logprobs":null,"finish_reason":null}]}'.length),
    ],
    ['trailing text', `${chunkText('a')} `],
    ['a truncated end (invalid JSON)', chunkText('a').slice(0, -1)],
    ['content past 4096 characters', chunkText('a'.repeat(4096))],
    ['an error event', JSON.stringify({ error: { message: 'x', code: 500 } })],
    ['[DONE]', '[DONE]'],
  ])('leaves a chunk with %s to the parser', (_name, text) => {
    expect(matchPlainContentChunk(text)).toBeUndefined();
  });
});
