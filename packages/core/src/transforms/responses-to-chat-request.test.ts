import { describe, expect, it } from 'vitest';
import { responsesToChatRequest } from './responses-to-chat-request.js';

describe('responsesToChatRequest', () => {
  it('turns instructions into a system message and a string input into a user message', () => {
    expect(responsesToChatRequest({ model: 'general-std', input: 'Tell me a joke.', instructions: 'Be brief.' })).toEqual({
      model: 'general-std',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Tell me a joke.' },
      ],
    });
  });

  it('maps input_text and input_image parts to text and image_url parts, keeping roles', () => {
    const chat = responsesToChatRequest({
      model: 'm',
      input: [
        { role: 'developer', content: [{ type: 'input_text', text: 'Rules.' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is it?' }, { type: 'input_image', image_url: 'data:image/png;base64,AA', detail: 'low' }] },
        { role: 'assistant', content: [{ type: 'output_text', text: 'A cat.' }] },
      ],
    });
    expect(chat.messages).toEqual([
      { role: 'developer', content: [{ type: 'text', text: 'Rules.' }] },
      { role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AA', detail: 'low' } }] },
      { role: 'assistant', content: [{ type: 'text', text: 'A cat.' }] },
    ]);
  });

  it('maps max_tokens or max_output_tokens to max_tokens and reasoning.effort to reasoning_effort', () => {
    expect(responsesToChatRequest({ model: 'm', input: 'x', max_output_tokens: 40 }).max_tokens).toBe(40);
    expect(responsesToChatRequest({ model: 'm', input: 'x', max_tokens: 41 }).max_tokens).toBe(41);
    expect(responsesToChatRequest({ model: 'm', input: 'x', reasoning: { effort: 'low' } }).reasoning_effort).toBe('low');
  });

  it('carries stream, temperature, top_p, user and every extra sampling parameter; drops store: false', () => {
    const chat = responsesToChatRequest({ model: 'm', input: 'x', stream: true, temperature: 0.5, top_p: 0.8, user: 'u', store: false, top_k: 3, min_p: 0.1, bad_words: ['w'], ignore_eos: true });
    expect(chat).toEqual({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true, temperature: 0.5, top_p: 0.8, user: 'u', top_k: 3, min_p: 0.1, bad_words: ['w'], ignore_eos: true });
  });
});
