import { describe, expect, it } from 'vitest';
import { responsesToChatRequest } from './responses-to-chat-request.js';

describe('responsesToChatRequest', () => {
  it('turns instructions into a system message and a string input into a user message', () => {
    expect(
      responsesToChatRequest({
        model: 'general-std',
        input: 'Tell me a joke.',
        instructions: 'Be brief.',
      }),
    ).toEqual({
      model: 'general-std',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Tell me a joke.' },
      ],
    });
  });

  it('maps input_text and input_image parts to text and image_url parts; developer becomes system', () => {
    const chat = responsesToChatRequest({
      model: 'm',
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Rules.' }] },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is it?' },
            { type: 'input_image', image_url: 'data:image/png;base64,AA', detail: 'low' },
          ],
        },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'A cat.' }] },
      ],
    });
    expect(chat.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Rules.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is it?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AA', detail: 'low' } },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'A cat.' }] },
    ]);
  });

  it('maps max_tokens or max_output_tokens to max_tokens and reasoning.effort to reasoning_effort', () => {
    expect(
      responsesToChatRequest({ model: 'm', input: 'x', max_output_tokens: 40 }).max_tokens,
    ).toBe(40);
    expect(responsesToChatRequest({ model: 'm', input: 'x', max_tokens: 41 }).max_tokens).toBe(41);
    expect(
      responsesToChatRequest({ model: 'm', input: 'x', reasoning: { effort: 'low' } })
        .reasoning_effort,
    ).toBe('low');
  });

  it('turns replayed function calls into assistant tool calls (joining the turn before them) and their outputs into tool messages; drops reasoning items', () => {
    const chat = responsesToChatRequest({
      model: 'm',
      input: [
        { type: 'message', role: 'user', content: 'Weather in Paris and Rome?' },
        { type: 'reasoning' },
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Checking.' }],
        },
        {
          type: 'function_call',
          call_id: 'c1',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
        },
        { type: 'function_call', call_id: 'c2', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'c1', output: '21' },
        {
          type: 'function_call_output',
          call_id: 'c2',
          output: [{ type: 'input_text', text: '25' }],
        },
        { type: 'function_call', call_id: 'c3', name: 'get_time', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c3', output: 'noon' },
      ],
    });
    const call = (id: string, name: string, args: string) => ({
      id,
      type: 'function',
      function: { name, arguments: args },
    });
    expect(chat.messages).toEqual([
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Checking.' }],
        tool_calls: [
          call('c1', 'get_weather', '{"city":"Paris"}'),
          call('c2', 'get_weather', '{"city":"Rome"}'),
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '21' },
      { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: '25' }] },
      { role: 'assistant', tool_calls: [call('c3', 'get_time', '{}')] },
      { role: 'tool', tool_call_id: 'c3', content: 'noon' },
    ]);
  });

  it('maps function tools, tool_choice, parallel_tool_calls and text.format to their chat forms', () => {
    const parameters = {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    };
    const chat = responsesToChatRequest({
      model: 'm',
      input: 'x',
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Weather now.',
          parameters,
          strict: true,
        },
        { type: 'function', name: 'noop', description: null, parameters: null, strict: null },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
      text: {
        format: {
          type: 'json_schema',
          name: 'answer',
          schema: parameters,
          strict: true,
          description: null,
        },
        verbosity: 'low',
      },
    });
    expect(chat).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Weather now.', parameters, strict: true },
        },
        { type: 'function', function: { name: 'noop' } },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: parameters, strict: true },
      },
    });
    expect(
      responsesToChatRequest({ model: 'm', input: 'x', text: { format: { type: 'json_object' } } })
        .response_format,
    ).toEqual({ type: 'json_object' });
    expect(
      responsesToChatRequest({ model: 'm', input: 'x', text: { format: { type: 'text' } } }),
    ).not.toHaveProperty('response_format');
    expect(
      responsesToChatRequest({ model: 'm', input: 'x', tools: [], tool_choice: 'auto' }),
    ).not.toHaveProperty('tools');
  });

  it('asks for log-probabilities when top_logprobs or the include entry asks for them', () => {
    expect(responsesToChatRequest({ model: 'm', input: 'x', top_logprobs: 3 })).toMatchObject({
      logprobs: true,
      top_logprobs: 3,
    });
    expect(
      responsesToChatRequest({ model: 'm', input: 'x', include: ['message.output_text.logprobs'] }),
    ).toMatchObject({ logprobs: true });
    expect(
      responsesToChatRequest({ model: 'm', input: 'x', include: ['reasoning.encrypted_content'] }),
    ).not.toHaveProperty('logprobs');
  });

  it('carries stream, temperature, top_p, user and every extra sampling parameter; sends nothing of store, metadata, include, truncation', () => {
    const chat = responsesToChatRequest({
      model: 'm',
      input: 'x',
      stream: true,
      temperature: 0.5,
      top_p: 0.8,
      user: 'u',
      store: true,
      metadata: { a: 'b' },
      include: ['reasoning.encrypted_content'],
      truncation: 'auto',
      safety_identifier: 's',
      prompt_cache_key: 'k',
      service_tier: 'auto',
      top_k: 3,
      min_p: 0.1,
      bad_words: ['w'],
      ignore_eos: true,
      prompt_logprobs: 2,
    });
    expect(chat).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
      temperature: 0.5,
      top_p: 0.8,
      user: 'u',
      top_k: 3,
      min_p: 0.1,
      bad_words: ['w'],
      ignore_eos: true,
      prompt_logprobs: 2,
    });
  });
});
