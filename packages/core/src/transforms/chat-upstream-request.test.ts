import { describe, expect, it } from 'vitest';
import { buildChatUpstreamRequest } from './chat-upstream-request.js';

const messages = [{ role: 'user' as const, content: 'Hi' }];

describe('buildChatUpstreamRequest', () => {
  it('sends the upstream model name and the fixed settings as chat_template_kwargs, never a top-level reasoning_effort', () => {
    const { body } = buildChatUpstreamRequest({ model: 'general-max-thinking', messages, reasoning_effort: 'high', temperature: 0.3, top_k: 4 }, 'served-b53', {
      enable_thinking: true,
      clear_thinking: true,
      reasoning_effort: 'high',
    });
    expect(body).toEqual({
      model: 'served-b53',
      messages,
      temperature: 0.3,
      top_k: 4,
      chat_template_kwargs: { enable_thinking: true, clear_thinking: true, reasoning_effort: 'high' },
    });
  });

  it('always asks a stream for usage, and remembers whether the client did', () => {
    const silent = buildChatUpstreamRequest({ model: 'm', messages, stream: true }, 'up', { enable_thinking: false });
    expect(silent.body.stream_options).toEqual({ include_usage: true, continuous_usage_stats: false });
    expect(silent.includeUsage).toBe(false);

    const asked = buildChatUpstreamRequest({ model: 'm', messages, stream: true, stream_options: { include_usage: true, continuous_usage_stats: true } }, 'up', { enable_thinking: false });
    expect(asked.body.stream_options).toEqual({ include_usage: true, continuous_usage_stats: true });
    expect(asked.includeUsage).toBe(true);
  });

  it('does not ask for continuous usage the client would not be shown', () => {
    const request = buildChatUpstreamRequest({ model: 'm', messages, stream: true, stream_options: { include_usage: false, continuous_usage_stats: true } }, 'up', { enable_thinking: false });
    expect(request.body.stream_options).toEqual({ include_usage: true, continuous_usage_stats: false });
  });

  it('sends no stream_options without a stream', () => {
    const request = buildChatUpstreamRequest({ model: 'm', messages }, 'up', { enable_thinking: false });
    expect(request.body).not.toHaveProperty('stream_options');
    expect(request.includeUsage).toBe(false);
  });
});
