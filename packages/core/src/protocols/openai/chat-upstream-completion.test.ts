import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../errors/gateway-error.js';
import {
  defaultSystemFingerprint,
  toClientChatCompletion,
} from '../../transforms/chat-completion-response.js';
import { readUpstreamChatCompletion } from './chat-upstream-completion.js';

const options = {
  model: 'alpha36-35b-a3b-instruct',
  clearThinking: false,
  id: 'chatcmpl-00000000000000000000000000000000',
  now: 1_767_225_600,
};

/** The least an OpenAI-compatible server can answer: one choice with a message, nothing else. */
const bare = { choices: [{ message: { content: 'Hi.' } }] };

function failure(body: unknown): { status: number; detail: unknown } {
  try {
    readUpstreamChatCompletion(body);
  } catch (error) {
    if (isGatewayError(error))
      return {
        status: error.status,
        detail: (error.cause as { detail?: unknown } | undefined)?.detail,
      };
    throw error;
  }
  throw new Error('expected a failure');
}

describe('readUpstreamChatCompletion: tolerant of what servers leave out', () => {
  it('reads an answer with only choices[].message.content and fills the spec object', () => {
    const completion = toClientChatCompletion(readUpstreamChatCompletion(bare), options);
    expect(completion).toMatchObject({
      created: 1_767_225_600,
      system_fingerprint: defaultSystemFingerprint,
      usage: {
        prompt_tokens: 0,
        completion_tokens: 0,
        total_tokens: 0,
        prompt_tokens_details: null,
      },
      choices: [
        {
          index: 0,
          finish_reason: null,
          logprobs: null,
          stop_reason: null,
          message: {
            role: 'assistant',
            content: 'Hi.',
            tool_calls: [],
            reasoning: null,
            refusal: null,
          },
        },
      ],
    });
    expect(typeof completion.system_fingerprint).toBe('string');
  });

  it('takes null for every optional field the protocol allows to be null', () => {
    const body = {
      id: null,
      created: null,
      system_fingerprint: null,
      usage: {
        prompt_tokens: 3,
        completion_tokens: null,
        total_tokens: null,
        prompt_tokens_details: null,
        completion_tokens_details: null,
      },
      choices: [
        {
          index: null,
          finish_reason: null,
          stop_reason: null,
          logprobs: null,
          message: {
            role: null,
            content: null,
            tool_calls: null,
            reasoning: null,
            reasoning_content: null,
            refusal: null,
          },
        },
      ],
    };
    const completion = toClientChatCompletion(readUpstreamChatCompletion(body), options);
    expect(completion.usage).toEqual({
      prompt_tokens: 3,
      completion_tokens: 0,
      total_tokens: 3,
      prompt_tokens_details: null,
    });
    expect(completion.choices[0]).toMatchObject({
      index: 0,
      finish_reason: null,
      message: { content: null, tool_calls: [] },
    });
    expect(completion.system_fingerprint).toBe(defaultSystemFingerprint);
  });

  it("keeps the upstream's own fingerprint, its logprobs and its tool calls", () => {
    const toolCalls = [
      { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } },
    ];
    const logprobs = {
      content: [{ token: 'Hi', logprob: -0.1, bytes: [72, 105], top_logprobs: [] }],
    };
    const completion = toClientChatCompletion(
      readUpstreamChatCompletion({
        system_fingerprint: 'b4321-1a2b3c4d',
        choices: [
          {
            message: { content: null, tool_calls: toolCalls },
            logprobs,
            finish_reason: 'tool_calls',
          },
        ],
      }),
      options,
    );
    expect(completion.system_fingerprint).toBe('b4321-1a2b3c4d');
    expect(completion.choices[0]?.logprobs).toEqual(logprobs);
    expect(completion.choices[0]?.message.tool_calls).toEqual(toolCalls);
  });

  it('takes an empty or non-string fingerprint and a float created without failing', () => {
    const completion = toClientChatCompletion(
      readUpstreamChatCompletion({ ...bare, system_fingerprint: 42, created: 1_767_225_601.75 }),
      options,
    );
    expect(completion.system_fingerprint).toBe(defaultSystemFingerprint);
    expect(completion.created).toBe(1_767_225_601);
    expect(
      toClientChatCompletion(
        readUpstreamChatCompletion({ ...bare, system_fingerprint: '' }),
        options,
      ).system_fingerprint,
    ).toBe(defaultSystemFingerprint);
  });

  it('treats an `error: null` member as no error', () => {
    expect(readUpstreamChatCompletion({ ...bare, error: null }).choices).toHaveLength(1);
  });
});

describe('readUpstreamChatCompletion: an unusable body is a 502 whose cause names the failing path', () => {
  it.each([
    ['no choices', { id: 'x' }, 'choices: '],
    ['empty choices', { choices: [] }, 'choices: no choices'],
    ['a choice without a message', { choices: [{ text: 'Hi.' }] }, 'choices[0].message: '],
    [
      'a content of the wrong type',
      { choices: [{ message: { content: 42 } }] },
      'choices[0].message.content: ',
    ],
    [
      'a usage count of the wrong type',
      { ...bare, usage: { prompt_tokens: 'three' } },
      'usage.prompt_tokens: ',
    ],
    [
      'tool_calls not an array',
      { choices: [{ message: { content: null, tool_calls: { id: 'x' } } }] },
      'choices[0].message.tool_calls: ',
    ],
    ['a body that is not an object', '<html>', '(body): '],
  ])('%s', (_name, body, detail) => {
    const result = failure(body);
    expect(result.status).toBe(502);
    expect(String(result.detail).startsWith(detail), String(result.detail)).toBe(true);
  });
});
