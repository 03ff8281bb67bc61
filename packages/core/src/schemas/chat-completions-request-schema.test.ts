import { describe, expect, it } from 'vitest';
import { schemaCases } from '../../test/schema-cases.js';
import { chatCompletionsRequestSchema } from './chat-completions-request-schema.js';

const base = { model: 'general-pro', messages: [{ role: 'user', content: 'Hi' }] };

const { parse, failure } = schemaCases(chatCompletionsRequestSchema);

describe('chatCompletionsRequestSchema: messages', () => {
  it('accepts every role with its own fields', () => {
    const request = parse({
      ...base,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: [{ type: 'text', text: 'Rules.' }] },
        {
          role: 'user',
          name: 'ada',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          reasoning_content: 'thinking',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '42' },
      ],
    });
    expect(request.messages).toHaveLength(5);
  });

  it('accepts our own answer message sent back as an assistant turn, dropping the fields a request message does not have', () => {
    const echoed = {
      role: 'assistant',
      content: 'Hello.',
      tool_calls: [],
      annotations: null,
      audio: null,
      function_call: null,
      reasoning: null,
      refusal: null,
    };
    expect(parse({ ...base, messages: [...base.messages, echoed] }).messages[1]).toStrictEqual({
      role: 'assistant',
      content: 'Hello.',
      tool_calls: [],
    });
  });

  it('drops unknown fields inside messages and content parts, as clients replay them (OpenAI Agents SDK, chat mode)', () => {
    const replayed = {
      role: 'assistant',
      content: [
        {
          type: 'text',
          text: 'Earlier answer.',
          role: 'assistant',
          tool_calls: [],
          annotations: [],
          audio: null,
          refusal: null,
        },
        { type: 'refusal', refusal: 'I cannot.' },
      ],
      refusal: 'I cannot.',
      annotations: [],
      reasoning: 'thought',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' }, index: 0 },
      ],
      providerData: { id: 'x' },
    };
    const user = {
      role: 'user',
      content: [
        { type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } },
        { type: 'image_url', image_url: { url: 'data:,', fetch: true } },
      ],
      id: 'm1',
    };
    const messages = parse({
      ...base,
      messages: [
        user,
        replayed,
        { role: 'tool', tool_call_id: 'call_1', content: '42', name: 'f' },
      ],
    }).messages;
    expect(messages).toStrictEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Hi' },
          { type: 'image_url', image_url: { url: 'data:,' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Earlier answer.' },
          { type: 'text', text: 'I cannot.' },
        ],
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '42' },
    ]);
  });

  it.each([
    ['an unknown role', [{ role: 'robot', content: 'x' }], 'messages[0].role'],
    ['a missing role', [{ content: 'x' }], 'messages[0].role'],
    [
      'an image in a system message',
      [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'data:,' } }] }],
      'messages[0].content[0].type',
    ],
    [
      'a wrong type deep in a part',
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'image_url', image_url: { url: 5 } },
          ],
        },
      ],
      'messages[0].content[1].image_url.url',
    ],
    [
      'an unsupported content part',
      [
        {
          role: 'user',
          content: [{ type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }],
        },
      ],
      'messages[0].content[0].type',
    ],
    ['content neither string nor array', [{ role: 'user', content: 5 }], 'messages[0].content'],
    [
      'a tool message without tool_call_id',
      [{ role: 'tool', content: 'x' }],
      'messages[0].tool_call_id',
    ],
    [
      'a tool call of the wrong shape',
      [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f' } }] }],
      'messages[0].tool_calls[0].function.arguments',
    ],
  ])('refuses %s, naming the field', (_case, messages, param) => {
    expect(failure({ ...base, messages })).toMatchObject({ status: 400, param });
  });

  it('refuses an empty message list', () => {
    expect(failure({ ...base, messages: [] })).toMatchObject({ status: 400, param: 'messages' });
  });
});

describe('chatCompletionsRequestSchema: parameters', () => {
  it.each([
    ['temperature', 2, 2.01],
    ['temperature', 0, -0.1],
    ['top_p', 1, 0],
    ['max_tokens', 1, 0],
    ['max_tokens', 5, 1.5],
    ['max_completion_tokens', 16, 0],
    ['n', 8, 9],
    ['n', 1, 0],
    ['seed', -3, 1.5],
    ['presence_penalty', -2, -2.5],
    ['frequency_penalty', 2, 2.5],
    ['logit_bias', { '50256': -100 }, { '50256': -101 }],
    ['logit_bias', { '1': 1 }, { word: 1 }],
    ['stop', 'END', ''],
    ['stop', ['a', 'b'], Array.from({ length: 17 }, (_, index) => `s${index}`)],
    ['user', 'u-1', 5],
    ['reasoning_effort', 'max', 'medium'],
    [
      'response_format',
      { type: 'json_schema', json_schema: { name: 'r', schema: { type: 'object' } } },
      { type: 'yaml' },
    ],
    [
      'tools',
      [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      [{ type: 'web_search' }],
    ],
    ['tool_choice', 'required', 'sometimes'],
    ['parallel_tool_calls', false, 'yes'],
    ['logprobs', true, 'yes'],
  ])('%s: accepts %j, refuses %j', (name, good, bad) => {
    expect(parse({ ...base, [name]: good })).toHaveProperty(name);
    expect(failure({ ...base, [name]: bad })).toMatchObject({
      status: 400,
      param: expect.stringMatching(new RegExp(`^${name}`)),
    });
  });

  it('top_logprobs needs logprobs: true and is at most 20', () => {
    expect(parse({ ...base, logprobs: true, top_logprobs: 20 }).top_logprobs).toBe(20);
    expect(failure({ ...base, top_logprobs: 2 })).toMatchObject({
      status: 400,
      param: 'top_logprobs',
    });
    expect(failure({ ...base, logprobs: true, top_logprobs: 21 })).toMatchObject({
      status: 400,
      param: 'top_logprobs',
    });
  });

  it('stream_options needs stream: true, as vLLM', () => {
    expect(
      parse({
        ...base,
        stream: true,
        stream_options: { include_usage: true, continuous_usage_stats: false },
      }).stream_options,
    ).toEqual({
      include_usage: true,
      continuous_usage_stats: false,
    });
    expect(failure({ ...base, stream_options: { include_usage: true } })).toMatchObject({
      status: 400,
      param: 'stream_options',
    });
    expect(failure({ ...base, stream: false, stream_options: {} })).toMatchObject({
      status: 400,
      param: 'stream_options',
    });
    expect(
      parse({
        ...base,
        stream: true,
        stream_options: { include_usage: true, include_obfuscation: false },
      }).stream_options,
    ).toEqual({
      include_usage: true,
    });
  });

  it('accepts an empty tool list (an agent without tools) and a named tool_choice only for a tool in tools', () => {
    expect(parse({ ...base, tools: [] }).tools).toEqual([]);
    const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }];
    expect(
      parse({ ...base, tools, tool_choice: { type: 'function', function: { name: 'f' } } })
        .tool_choice,
    ).toEqual({
      type: 'function',
      function: { name: 'f' },
    });
    expect(
      failure({ ...base, tools, tool_choice: { type: 'function', function: { name: 'g' } } }),
    ).toMatchObject({
      status: 400,
      param: 'tool_choice.function.name',
    });
  });

  it('accepts the completion API fields that change nothing upstream; refuses audio output', () => {
    const request = parse({
      ...base,
      store: true,
      metadata: { team: 'a' },
      service_tier: 'auto',
      safety_identifier: 'u',
      prompt_cache_key: 'k',
      verbosity: 'low',
      modalities: ['text'],
    });
    expect(request.store).toBe(true);
    expect(failure({ ...base, modalities: ['text', 'audio'] })).toMatchObject({
      status: 400,
      param: 'modalities[1]',
    });
  });

  it('refuses max_tokens together with max_completion_tokens', () => {
    expect(failure({ ...base, max_tokens: 5, max_completion_tokens: 5 })).toMatchObject({
      status: 400,
      param: 'max_completion_tokens',
    });
  });

  it('reads a top-level null as not given', () => {
    const request = parse({ ...base, temperature: null, stop: null, stream_options: null });
    expect(request).not.toHaveProperty('temperature');
    expect(request).not.toHaveProperty('stop');
  });

  // Fault matrix row 25: upstream-only controls a client must not be able to set.
  it.each([
    'chat_template',
    'chat_template_kwargs',
    'mm_processor_kwargs',
    'kv_transfer_params',
    'vllm_xargs',
    'include_reasoning',
  ])('refuses %s by name', (name) => {
    expect(failure({ ...base, [name]: { chat_template: '{{ x }}' } })).toMatchObject({
      status: 400,
      code: 'unknown_parameter',
      param: name,
    });
  });
});
