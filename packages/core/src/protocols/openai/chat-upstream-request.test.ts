import { describe, expect, it } from 'vitest';
import { buildChatUpstreamRequest } from './chat-upstream-request.js';

const messages = [{ role: 'user' as const, content: 'Hi' }];

describe('buildChatUpstreamRequest', () => {
  it('sends the upstream model name and the fixed settings as chat_template_kwargs, never a top-level reasoning_effort', () => {
    const { body } = buildChatUpstreamRequest(
      {
        model: 'general-max-thinking',
        messages,
        reasoning_effort: 'high',
        temperature: 0.3,
        top_k: 4,
      },
      'served-b53',
      {
        enable_thinking: true,
        clear_thinking: true,
        reasoning_effort: 'high',
      },
    );
    expect(body).toEqual({
      model: 'served-b53',
      messages,
      temperature: 0.3,
      top_k: 4,
      chat_template_kwargs: {
        enable_thinking: true,
        clear_thinking: true,
        reasoning_effort: 'high',
      },
    });
  });

  it('always asks a stream for usage, and remembers whether the client did', () => {
    const silent = buildChatUpstreamRequest({ model: 'm', messages, stream: true }, 'up', {
      enable_thinking: false,
    });
    expect(silent.body.stream_options).toEqual({ include_usage: true });
    expect(silent.includeUsage).toBe(false);

    const asked = buildChatUpstreamRequest(
      {
        model: 'm',
        messages,
        stream: true,
        stream_options: { include_usage: true, continuous_usage_stats: true },
      },
      'up',
      { enable_thinking: false },
    );
    expect(asked.body.stream_options).toEqual({
      include_usage: true,
      continuous_usage_stats: true,
    });
    expect(asked.includeUsage).toBe(true);
  });

  it('does not ask for continuous usage the client would not be shown', () => {
    const request = buildChatUpstreamRequest(
      {
        model: 'm',
        messages,
        stream: true,
        stream_options: { include_usage: false, continuous_usage_stats: true },
      },
      'up',
      { enable_thinking: false },
    );
    expect(request.body.stream_options).toEqual({ include_usage: true });
  });

  it('sends no vLLM-only field a plain model does not need: no chat_template_kwargs, no empty tools, nothing client-only', () => {
    const request = buildChatUpstreamRequest(
      {
        model: 'm',
        messages,
        tools: [],
        tool_choice: 'auto',
        parallel_tool_calls: true,
        store: true,
        metadata: { a: 'b' },
        service_tier: 'auto',
        safety_identifier: 's',
        prompt_cache_key: 'k',
        verbosity: 'low',
        modalities: ['text'],
      },
      'up',
      { enable_thinking: false },
    );
    expect(request.body).toEqual({ model: 'up', messages });
  });

  it('leaves the empty or null tool_calls of replayed assistant messages out, keeping real calls', () => {
    const call = { id: 'c', type: 'function' as const, function: { name: 'f', arguments: '{}' } };
    const replayed = [
      { role: 'user' as const, content: 'Hi' },
      { role: 'assistant' as const, content: 'Hello.', tool_calls: [] },
      { role: 'assistant' as const, content: null, tool_calls: [call] },
      { role: 'tool' as const, tool_call_id: 'c', content: '1' },
      { role: 'assistant' as const, content: 'Done.', tool_calls: null },
    ];
    expect(
      buildChatUpstreamRequest({ model: 'm', messages: replayed }, 'up', { enable_thinking: false })
        .body.messages,
    ).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: 'c', content: '1' },
      { role: 'assistant', content: 'Done.' },
    ]);
    expect(
      buildChatUpstreamRequest({ model: 'm', messages }, 'up', { enable_thinking: false }).body
        .messages,
    ).toBe(messages);
  });

  it('passes tools, tool_choice and parallel_tool_calls through when there are tools, and turns thinking on for thinking models', () => {
    const tools = [
      { type: 'function' as const, function: { name: 'f', parameters: { type: 'object' } } },
    ];
    const request = buildChatUpstreamRequest(
      {
        model: 'm',
        messages,
        tools,
        tool_choice: 'required',
        parallel_tool_calls: false,
        response_format: { type: 'json_object' },
      },
      'up',
      { enable_thinking: true },
    );
    expect(request.body).toEqual({
      model: 'up',
      messages,
      tools,
      tool_choice: 'required',
      parallel_tool_calls: false,
      response_format: { type: 'json_object' },
      chat_template_kwargs: { enable_thinking: true },
    });
  });

  it('sends no stream_options without a stream', () => {
    const request = buildChatUpstreamRequest({ model: 'm', messages }, 'up', {
      enable_thinking: false,
    });
    expect(request.body).not.toHaveProperty('stream_options');
    expect(request.includeUsage).toBe(false);
  });
});
