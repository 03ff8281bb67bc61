import { describe, expect, it } from 'vitest';
import { schemaCases } from '../../test/schema-cases.js';
import { responsesRequestSchema } from './responses-request-schema.js';

const base = { model: 'alpha36-35b-a3b-instruct', input: 'Tell me a joke.' };

const { parse, failure } = schemaCases(responsesRequestSchema);

describe('responsesRequestSchema', () => {
  it('accepts a string input and an array of input messages with text and image parts', () => {
    expect(parse(base).input).toBe('Tell me a joke.');
    const request = parse({
      ...base,
      input: [
        { role: 'system', content: 'Be brief.' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is in this image?' },
            { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'high' },
          ],
        },
        { role: 'assistant', content: [{ type: 'output_text', text: 'A cat.' }] },
        { role: 'developer', content: [{ type: 'input_text', text: 'Answer in French.' }] },
      ],
    });
    expect(request.input).toHaveLength(4);
  });

  it('accepts replayed output items as input: message items with id and status, output_text with annotations and logprobs, refusals, function calls and their outputs, reasoning items', () => {
    const input = [
      { role: 'user', content: 'What is the weather in Paris?' },
      {
        id: 'rs_1',
        type: 'reasoning',
        summary: [],
        content: [{ type: 'reasoning_text', text: 'Call the tool.' }],
        encrypted_content: null,
        status: 'completed',
      },
      {
        id: 'fc_1',
        type: 'function_call',
        status: 'completed',
        call_id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
      {
        type: 'function_call_output',
        call_id: 'call_1',
        output: '{"temp":21}',
        id: 'fco_1',
        status: 'completed',
      },
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        phase: null,
        content: [
          { type: 'output_text', text: 'It is 21.', annotations: [], logprobs: null },
          { type: 'refusal', refusal: 'No more.' },
        ],
      },
      {
        type: 'function_call_output',
        call_id: 'call_2',
        output: [{ type: 'input_text', text: 'done' }],
      },
    ];
    expect(parse({ ...base, input }).input).toEqual([
      { role: 'user', content: 'What is the weather in Paris?' },
      { type: 'reasoning' },
      {
        type: 'function_call',
        call_id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
      { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' },
      {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'It is 21.' },
          { type: 'refusal', refusal: 'No more.' },
        ],
      },
      {
        type: 'function_call_output',
        call_id: 'call_2',
        output: [{ type: 'input_text', text: 'done' }],
      },
    ]);
  });

  it.each([
    ['an unknown role', [{ role: 'robot', content: 'x' }], 'input[0].role'],
    [
      'an image outside a user message',
      [{ role: 'system', content: [{ type: 'input_image', image_url: 'data:,' }] }],
      'input[0].content[0].type',
    ],
    [
      'an image part without image_url (by file id)',
      [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }],
      'input[0].content[0].image_url',
    ],
    [
      'a file part',
      [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }],
      'input[0].content[0].type',
    ],
    [
      'a wrong part field type',
      [{ role: 'user', content: [{ type: 'input_text', text: 3 }] }],
      'input[0].content[0].text',
    ],
    [
      'a function call without call_id',
      [{ type: 'function_call', name: 'f', arguments: '{}' }],
      'input[0].call_id',
    ],
    [
      'a function call output that is not text',
      [{ type: 'function_call_output', call_id: 'c', output: 5 }],
      'input[0].output',
    ],
    [
      'an item of a hosted tool',
      [{ type: 'web_search_call', id: 'ws_1', status: 'completed' }],
      'input[0].type',
    ],
    ['an item without type or role', [{ content: 'x' }], 'input[0].role'],
    ['an empty input list', [], 'input'],
  ])('refuses %s, naming the field', (_case, input, param) => {
    expect(failure({ ...base, input })).toMatchObject({ status: 400, param });
  });

  it('refuses an item_reference, saying to send the item itself (nothing is stored)', () => {
    const refused = failure({ ...base, input: [{ type: 'item_reference', id: 'msg_1' }] });
    expect(refused).toMatchObject({ status: 400, param: 'input[0].type' });
    expect(refused.message).toContain('stores nothing');
  });

  it('refuses a missing input', () => {
    expect(failure({ model: base.model })).toMatchObject({
      status: 400,
      code: 'missing_parameter',
      param: 'input',
    });
  });

  it.each([
    ['temperature', 1.5, 3],
    ['top_p', 0.5, 1.5],
    ['max_tokens', 64, 0],
    ['max_output_tokens', 64, -5],
    ['instructions', 'Be kind.', 7],
    ['reasoning', { effort: 'medium', summary: 'auto' }, { effort: 'extreme' }],
    ['user', 'u-1', false],
    ['stream', true, 'yes'],
    ['store', true, 'yes'],
    ['metadata', { run: '7' }, { run: 7 }],
    ['include', ['reasoning.encrypted_content', 'message.output_text.logprobs'], 'all'],
    ['tool_choice', 'required', 'sometimes'],
    ['parallel_tool_calls', false, 'no'],
    ['max_tool_calls', 2, 0],
    [
      'text',
      {
        format: { type: 'json_schema', name: 'r', schema: { type: 'object' }, strict: true },
        verbosity: 'low',
      },
      { format: { type: 'yaml' } },
    ],
    ['truncation', 'auto', 'middle'],
    ['top_logprobs', 5, 21],
    ['service_tier', 'default', 'fastest'],
    ['safety_identifier', 'hash-1', 1],
    ['prompt_cache_key', 'k', 1],
    ['prompt_logprobs', 1, -1],
    ['stream_options', { include_obfuscation: false }, 'x'],
  ])('%s: accepts %j, refuses %j', (name, good, bad) => {
    expect(parse({ ...base, [name]: good })).toHaveProperty(name, good);
    expect(failure({ ...base, [name]: bad })).toMatchObject({
      status: 400,
      param: expect.stringMatching(new RegExp(`^${name}`)),
    });
  });

  it('accepts function tools (strict kept) and refuses a built-in tool type, naming tools[i].type', () => {
    const tool = {
      type: 'function',
      name: 'get_weather',
      description: null,
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      strict: true,
    };
    expect(parse({ ...base, tools: [tool] }).tools).toEqual([tool]);
    expect(parse({ ...base, tools: [] }).tools).toEqual([]);
    for (const type of [
      'web_search',
      'web_search_preview',
      'file_search',
      'code_interpreter',
      'computer_use_preview',
      'mcp',
      'image_generation',
      'local_shell',
      'custom',
    ]) {
      const refused = failure({ ...base, tools: [tool, { type, name: 'x' }] });
      expect(refused).toMatchObject({ status: 400, param: 'tools[1].type' });
      expect(refused.message).toContain(type);
    }
  });

  it('refuses a named tool_choice for a tool not in tools', () => {
    const tools = [{ type: 'function', name: 'f', parameters: { type: 'object' } }];
    expect(
      parse({ ...base, tools, tool_choice: { type: 'function', name: 'f' } }).tool_choice,
    ).toEqual({ type: 'function', name: 'f' });
    expect(failure({ ...base, tools, tool_choice: { type: 'function', name: 'g' } })).toMatchObject(
      { status: 400, param: 'tool_choice.name' },
    );
  });

  it('refuses max_tokens together with max_output_tokens (same meaning)', () => {
    expect(failure({ ...base, max_tokens: 10, max_output_tokens: 10 })).toMatchObject({
      status: 400,
      param: 'max_output_tokens',
    });
  });

  it.each([
    ['previous_response_id', 'resp_123'],
    ['conversation', 'conv_1'],
    ['background', true],
    ['prompt', { id: 'pmpt_1' }],
  ])('refuses %s, which needs stored state, saying to resend the history', (name, value) => {
    const refused = failure({ ...base, [name]: value });
    expect(refused).toMatchObject({ status: 400, param: name });
    expect(refused.message).toContain('input items');
  });

  it('reads nulls as not given, as clients that serialise every field send them', () => {
    const request = parse({
      ...base,
      previous_response_id: null,
      background: false,
      store: null,
      tools: null,
      text: { format: null, verbosity: null },
      reasoning: { effort: null, summary: null },
    });
    expect(request).not.toHaveProperty('previous_response_id');
    expect(request.background).toBe(false);
  });

  it.each(['mm_processor_kwargs', 'chat_template_kwargs', 'logprobs', 'seed'])(
    'refuses the unknown top-level %s by name',
    (name) => {
      expect(failure({ ...base, [name]: 'x' })).toMatchObject({
        status: 400,
        code: 'unknown_parameter',
        param: name,
      });
    },
  );
});
