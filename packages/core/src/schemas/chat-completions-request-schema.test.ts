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
        { role: 'user', name: 'ada', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } }] },
        { role: 'assistant', content: null, reasoning_content: 'thinking', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '42' },
      ],
    });
    expect(request.messages).toHaveLength(5);
  });

  it('accepts our own answer message sent back as an assistant turn', () => {
    const echoed = { role: 'assistant', content: 'Hello.', tool_calls: [], annotations: null, audio: null, function_call: null, reasoning: null, refusal: null };
    expect(parse({ ...base, messages: [...base.messages, echoed] }).messages[1]).toMatchObject({ role: 'assistant', content: 'Hello.' });
  });

  it.each([
    ['an unknown role', [{ role: 'robot', content: 'x' }], 'messages[0].role'],
    ['a missing role', [{ content: 'x' }], 'messages[0].role'],
    ['an image in a system message', [{ role: 'system', content: [{ type: 'image_url', image_url: { url: 'data:,' } }] }], 'messages[0].content[0].type'],
    ['a wrong type deep in a part', [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'image_url', image_url: { url: 5 } }] }], 'messages[0].content[1].image_url.url'],
    ['an unknown key in image_url', [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x', fetch: true } }] }], 'messages[0].content[0].image_url.fetch'],
    ['content neither string nor array', [{ role: 'user', content: 5 }], 'messages[0].content'],
    ['a tool message without tool_call_id', [{ role: 'tool', content: 'x' }], 'messages[0].tool_call_id'],
    ['a user message with reasoning', [{ role: 'user', content: 'x', reasoning: 'y' }], 'messages[0].reasoning'],
    ['an assistant refusal text', [{ role: 'assistant', content: 'x', refusal: 'no' }], 'messages[0].refusal'],
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
    ['response_format', { type: 'json_schema', json_schema: { name: 'r', schema: { type: 'object' } } }, { type: 'yaml' }],
    ['tools', [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }], []],
    ['tool_choice', { type: 'function', function: { name: 'f' } }, 'sometimes'],
    ['parallel_tool_calls', false, 'yes'],
    ['logprobs', true, 'yes'],
  ])('%s: accepts %j, refuses %j', (name, good, bad) => {
    expect(parse({ ...base, [name]: good })).toHaveProperty(name);
    expect(failure({ ...base, [name]: bad })).toMatchObject({ status: 400, param: expect.stringMatching(new RegExp(`^${name}`)) });
  });

  it('top_logprobs needs logprobs: true and is at most 20', () => {
    expect(parse({ ...base, logprobs: true, top_logprobs: 20 }).top_logprobs).toBe(20);
    expect(failure({ ...base, top_logprobs: 2 })).toMatchObject({ status: 400, param: 'top_logprobs' });
    expect(failure({ ...base, logprobs: true, top_logprobs: 21 })).toMatchObject({ status: 400, param: 'top_logprobs' });
  });

  it('stream_options needs stream: true, as vLLM', () => {
    expect(parse({ ...base, stream: true, stream_options: { include_usage: true, continuous_usage_stats: false } }).stream_options).toEqual({ include_usage: true, continuous_usage_stats: false });
    expect(failure({ ...base, stream_options: { include_usage: true } })).toMatchObject({ status: 400, param: 'stream_options' });
    expect(failure({ ...base, stream: false, stream_options: {} })).toMatchObject({ status: 400, param: 'stream_options' });
    expect(failure({ ...base, stream: true, stream_options: { include_obfuscation: true } })).toMatchObject({ status: 400, param: 'stream_options.include_obfuscation' });
  });

  it('refuses max_tokens together with max_completion_tokens', () => {
    expect(failure({ ...base, max_tokens: 5, max_completion_tokens: 5 })).toMatchObject({ status: 400, param: 'max_completion_tokens' });
  });

  it('reads a top-level null as not given', () => {
    const request = parse({ ...base, temperature: null, stop: null, stream_options: null });
    expect(request).not.toHaveProperty('temperature');
    expect(request).not.toHaveProperty('stop');
  });

  // Fault matrix row 25: upstream-only controls a client must not be able to set.
  it.each(['chat_template', 'chat_template_kwargs', 'mm_processor_kwargs', 'kv_transfer_params', 'vllm_xargs', 'include_reasoning'])('refuses %s by name', (name) => {
    expect(failure({ ...base, [name]: { chat_template: '{{ x }}' } })).toMatchObject({ status: 400, code: 'unknown_parameter', param: name });
  });
});
