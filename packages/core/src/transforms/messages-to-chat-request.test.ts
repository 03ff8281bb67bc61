import { describe, expect, it } from 'vitest';
import { messagesRequestSchema } from '../schemas/messages-request-schema.js';
import { messagesToChatRequest } from './messages-to-chat-request.js';

function chatOf(body: Record<string, unknown>) {
  return messagesToChatRequest(
    messagesRequestSchema.parse({ model: 'm', max_tokens: 100, ...body }),
  );
}

describe('messagesToChatRequest', () => {
  it('sends system first, the messages in order, max_tokens and the sampling fields', () => {
    expect(
      chatOf({
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'Hi' }],
        temperature: 0.5,
        top_p: 0.9,
        top_k: 40,
        stop_sequences: ['END'],
        stream: true,
        metadata: { user_id: 'u' },
        thinking: { type: 'enabled', budget_tokens: 1024 },
      }),
    ).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      max_tokens: 100,
      stream: true,
      temperature: 0.5,
      top_p: 0.9,
      top_k: 40,
      stop: ['END'],
    });
  });

  it('keeps system blocks as text parts, without cache_control', () => {
    const chat = chatOf({
      system: [
        { type: 'text', text: 'A', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'B' },
      ],
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(chat.messages[0]).toEqual({
      role: 'system',
      content: [
        { type: 'text', text: 'A' },
        { type: 'text', text: 'B' },
      ],
    });
  });

  it('turns a tool loop into assistant tool calls and tool messages; thinking is not sent', () => {
    const chat = chatOf({
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'I should call the tool.', signature: 's' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'time', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_2',
              content: [{ type: 'text', text: 'no clock' }],
              is_error: true,
            },
            { type: 'text', text: 'Answer now.' },
          ],
        },
      ],
    });
    expect(chat.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Checking.' }],
        tool_calls: [
          {
            id: 'toolu_1',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Paris"}' },
          },
          { id: 'toolu_2', type: 'function', function: { name: 'time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'Sunny' },
      { role: 'tool', tool_call_id: 'toolu_2', content: 'Error: no clock' },
      { role: 'user', content: [{ type: 'text', text: 'Answer now.' }] },
    ]);
  });

  it('sends base64 images as data URLs, and a tool result image in a user message after the tool message', () => {
    const image = { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' };
    const chat = chatOf({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: image },
            { type: 'text', text: 'What is this?' },
          ],
        },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't', name: 'shot', input: {} }],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't',
              content: [
                { type: 'text', text: 'Screenshot:' },
                { type: 'image', source: image },
              ],
            },
          ],
        },
      ],
    });
    const url = { url: 'data:image/png;base64,iVBORw0K' };
    expect(chat.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: url },
          { type: 'text', text: 'What is this?' },
        ],
      },
      {
        role: 'assistant',
        tool_calls: [{ id: 't', type: 'function', function: { name: 'shot', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 't', content: 'Screenshot:' },
      { role: 'user', content: [{ type: 'image_url', image_url: url }] },
    ]);
  });

  it('maps custom tools and each tool_choice', () => {
    const tools = [
      {
        name: 'weather',
        description: 'Gets the weather',
        input_schema: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ];
    const chatTools = [
      {
        type: 'function',
        function: {
          name: 'weather',
          description: 'Gets the weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      },
    ];
    const messages = [{ role: 'user', content: 'Hi' }];
    expect(chatOf({ messages, tools }).tools).toEqual(chatTools);
    expect(chatOf({ messages, tools, tool_choice: { type: 'auto' } }).tool_choice).toBe('auto');
    expect(chatOf({ messages, tools, tool_choice: { type: 'any' } }).tool_choice).toBe('required');
    expect(chatOf({ messages, tools, tool_choice: { type: 'none' } }).tool_choice).toBe('none');
    const forced = chatOf({
      messages,
      tools,
      tool_choice: { type: 'tool', name: 'weather', disable_parallel_tool_use: true },
    });
    expect(forced.tool_choice).toEqual({ type: 'function', function: { name: 'weather' } });
    expect(forced.parallel_tool_calls).toBe(false);
  });
});

describe('messagesToChatRequest: output_config', () => {
  it('sends a JSON schema format as response_format and effort as reasoning_effort', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } } };
    const chat = chatOf({
      messages: [{ role: 'user', content: 'Hi' }],
      output_config: { effort: 'high', format: { type: 'json_schema', schema } },
    });
    expect(chat.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'output', schema },
    });
    expect(chat.reasoning_effort).toBe('high');
    expect(
      chatOf({
        messages: [{ role: 'user', content: 'Hi' }],
        output_format: { type: 'json_schema', schema },
      }).response_format,
    ).toEqual({ type: 'json_schema', json_schema: { name: 'output', schema } });
  });
});
