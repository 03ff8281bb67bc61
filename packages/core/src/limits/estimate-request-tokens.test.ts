import { describe, expect, it } from 'vitest';
import { estimatePromptTokens, estimateRequestTokens } from './estimate-request-tokens.js';

describe('estimateRequestTokens', () => {
  const chat = JSON.stringify({
    model: 'm',
    messages: [{ role: 'user', content: 'x'.repeat(400) }],
    max_tokens: 50,
  });

  it('reserves characters / 4 plus the max_tokens the request names', () => {
    expect(estimateRequestTokens('chat', chat)).toBe(Math.ceil(chat.length / 4) + 50);
    const responses = JSON.stringify({ model: 'm', input: 'hello', max_output_tokens: 7 });
    expect(estimateRequestTokens('responses', responses)).toBe(Math.ceil(responses.length / 4) + 7);
  });

  it('takes the first maximum the body names with a number, whatever the JSON whitespace around its colon', () => {
    const spaced = '{"model":"m","max_tokens" :\n 12,"messages":[]}';
    expect(estimateRequestTokens('chat', spaced, 300)).toBe(Math.ceil(spaced.length / 4) + 12);
    const nulled = JSON.stringify({
      model: 'm',
      max_tokens: null,
      messages: [{ role: 'user', content: 'the "max_tokens": 99 of a quoted text' }],
      max_completion_tokens: 9,
    });
    expect(estimateRequestTokens('chat', nulled, 300)).toBe(Math.ceil(nulled.length / 4) + 9);
  });

  it('reserves the configured default for text generation without a maximum, nothing extra elsewhere', () => {
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(estimateRequestTokens('chat', body, 300)).toBe(Math.ceil(body.length / 4) + 300);
    expect(estimateRequestTokens('embeddings', body, 300)).toBe(Math.ceil(body.length / 4));
    expect(estimateRequestTokens('embeddings', undefined)).toBe(0);
  });

  it('does not count the bytes of base64 data URLs as prompt text', () => {
    const image = `data:image/png;base64,${'A'.repeat(100_000)}`;
    const body = JSON.stringify({ content: [{ type: 'image_url', image_url: { url: image } }] });
    expect(estimatePromptTokens(body)).toBe(Math.ceil((body.length - image.length) / 4));
  });
});
