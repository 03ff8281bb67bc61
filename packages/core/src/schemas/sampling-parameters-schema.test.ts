import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/gateway-error.js';
import { chatCompletionsRequestSchema } from './chat-completions-request-schema.js';
import { parseRequestBody } from './parse-request-body.js';
import { responsesRequestSchema } from './responses-request-schema.js';

const chatBase = { model: 'general-pro', messages: [{ role: 'user', content: 'Hi' }] };
const responsesBase = { model: 'general-pro', input: 'Hi' };

function failure(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error))
      return { status: error.status, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected the body to be refused');
}

// The spec's "Extra sampling parameters" table, each with a value in its range and one outside it.
const cases: ReadonlyArray<readonly [string, unknown, unknown]> = [
  ['use_beam_search', true, 'yes'],
  ['top_k', 1, 0],
  ['top_k', 40, -1],
  ['top_k', 40, 2.5],
  ['min_p', 1, 1.01],
  ['min_p', 0, -0.01],
  ['repetition_penalty', 1, 0.99],
  ['length_penalty', 0, -0.5],
  ['length_penalty', 2.5, 'long'],
  ['stop_token_ids', [151_645, 0], [-1]],
  ['include_stop_str_in_output', false, 1],
  ['ignore_eos', true, 'true'],
  ['min_tokens', 0, -1],
  ['skip_special_tokens', false, 0],
  ['spaces_between_special_tokens', true, 'no'],
  ['truncate_prompt_tokens', 1, 0],
  ['allowed_token_ids', [1, 2], []],
  ['bad_words', ['darn'], ['']],
];

describe.each([
  [
    'chat completions',
    (body: object) =>
      parseRequestBody(chatCompletionsRequestSchema, JSON.stringify({ ...chatBase, ...body })),
  ],
  [
    'responses',
    (body: object) =>
      parseRequestBody(responsesRequestSchema, JSON.stringify({ ...responsesBase, ...body })),
  ],
])('extra sampling parameters on %s', (_endpoint, parse) => {
  it.each(cases)('%s: accepts %j, refuses %j naming it', (name, good, bad) => {
    expect(parse({ [name]: good })).toHaveProperty(name, good);
    expect(failure(() => parse({ [name]: bad }))).toMatchObject({
      status: 400,
      param: expect.stringMatching(new RegExp(`^${name}`)),
    });
  });

  it('min_tokens may not exceed max_tokens', () => {
    expect(parse({ min_tokens: 10, max_tokens: 10 })).toMatchObject({ min_tokens: 10 });
    expect(failure(() => parse({ min_tokens: 11, max_tokens: 10 }))).toMatchObject({
      status: 400,
      param: 'min_tokens',
    });
  });
});

describe('prompt_logprobs', () => {
  const parseChat = (body: object) =>
    parseRequestBody(chatCompletionsRequestSchema, JSON.stringify({ ...chatBase, ...body }));

  it('is accepted on a non-streaming chat request and refused with stream: true, as vLLM', () => {
    expect(parseChat({ prompt_logprobs: 2 }).prompt_logprobs).toBe(2);
    expect(failure(() => parseChat({ prompt_logprobs: 2, stream: true }))).toMatchObject({
      status: 400,
      param: 'prompt_logprobs',
    });
    expect(failure(() => parseChat({ prompt_logprobs: -1 }))).toMatchObject({
      status: 400,
      param: 'prompt_logprobs',
    });
  });

  it('min_tokens is bounded by max_completion_tokens too', () => {
    expect(failure(() => parseChat({ min_tokens: 3, max_completion_tokens: 2 }))).toMatchObject({
      status: 400,
      param: 'min_tokens',
    });
  });
});
