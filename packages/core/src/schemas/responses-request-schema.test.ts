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
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is in this image?' }, { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'high' }] },
        { role: 'assistant', content: [{ type: 'output_text', text: 'A cat.' }] },
        { role: 'developer', content: [{ type: 'input_text', text: 'Answer in French.' }] },
      ],
    });
    expect(request.input).toHaveLength(4);
  });

  it.each([
    ['an unknown role', [{ role: 'robot', content: 'x' }], 'input[0].role'],
    ['an image outside a user message', [{ role: 'system', content: [{ type: 'input_image', image_url: 'data:,' }] }], 'input[0].content[0].type'],
    ['an image by file id', [{ role: 'user', content: [{ type: 'input_image', image_url: 'data:,', file_id: 'file-1' }] }], 'input[0].content[0].file_id'],
    ['an image part without image_url', [{ role: 'user', content: [{ type: 'input_image' }] }], 'input[0].content[0].image_url'],
    ['a wrong part field type', [{ role: 'user', content: [{ type: 'input_text', text: 3 }] }], 'input[0].content[0].text'],
    ['a non-message item', [{ type: 'function_call_output', call_id: 'c', output: 'x' }], 'input[0].role'],
    ['an empty input list', [], 'input'],
  ])('refuses %s, naming the field', (_case, input, param) => {
    expect(failure({ ...base, input })).toMatchObject({ status: 400, param });
  });

  it('refuses a missing input', () => {
    expect(failure({ model: base.model })).toMatchObject({ status: 400, code: 'missing_parameter', param: 'input' });
  });

  it.each([
    ['temperature', 1.5, 3],
    ['top_p', 0.5, 1.5],
    ['max_tokens', 64, 0],
    ['max_output_tokens', 64, -5],
    ['instructions', 'Be kind.', 7],
    ['reasoning', { effort: 'low' }, { effort: 'medium' }],
    ['user', 'u-1', false],
    ['stream', true, 'yes'],
  ])('%s: accepts %j, refuses %j', (name, good, bad) => {
    expect(parse({ ...base, [name]: good })).toHaveProperty(name, good);
    expect(failure({ ...base, [name]: bad })).toMatchObject({ status: 400, param: expect.stringMatching(new RegExp(`^${name}`)) });
  });

  it('refuses max_tokens together with max_output_tokens (same meaning)', () => {
    expect(failure({ ...base, max_tokens: 10, max_output_tokens: 10 })).toMatchObject({ status: 400, param: 'max_output_tokens' });
  });

  it('accepts store: false and refuses store: true, saying the gateway stores no data', () => {
    expect(parse({ ...base, store: false }).store).toBe(false);
    const refused = failure({ ...base, store: true });
    expect(refused).toMatchObject({ status: 400, param: 'store' });
    expect(refused.message).toContain('stores no data');
  });

  it('refuses prompt_logprobs, which the response object cannot carry', () => {
    expect(failure({ ...base, prompt_logprobs: 1 })).toMatchObject({ status: 400, param: 'prompt_logprobs' });
  });

  it.each(['previous_response_id', 'tools', 'text', 'mm_processor_kwargs', 'chat_template_kwargs', 'background'])('refuses %s by name', (name) => {
    expect(failure({ ...base, [name]: 'x' })).toMatchObject({ status: 400, code: 'unknown_parameter', param: name });
  });
});
