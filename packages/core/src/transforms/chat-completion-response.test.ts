import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/gateway-error.js';
import { vllmCompletion } from '../handlers/text-test-ports.js';
import { toClientChatCompletion } from './chat-completion-response.js';
import { readUpstreamChatCompletion } from '../protocols/openai/chat-upstream-completion.js';

const options = {
  model: 'beta53-flash-agent',
  clearThinking: false,
  id: 'chatcmpl-0123456789abcdef0123456789abcdef',
  now: 1_767_225_600,
};

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return { status: error.status, code: error.code };
    throw error;
  }
  throw new Error('expected a failure');
}

describe('toClientChatCompletion', () => {
  it("has every field of the spec's chat completion object, model being the catalogue id", () => {
    const completion = toClientChatCompletion(
      readUpstreamChatCompletion(vllmCompletion({ reasoning: 'hmm' })),
      options,
    );
    expect(completion).toEqual({
      id: 'chatcmpl-0123456789abcdef0123456789abcdef',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'beta53-flash-agent',
      choices: [
        {
          index: 0,
          finish_reason: 'stop',
          logprobs: null,
          stop_reason: 151_645,
          token_ids: null,
          routed_experts: null,
          message: {
            role: 'assistant',
            content: 'Hello there.',
            tool_calls: [],
            annotations: null,
            audio: null,
            function_call: null,
            reasoning: 'hmm',
            refusal: null,
          },
        },
      ],
      usage: {
        completion_tokens: 7,
        prompt_tokens: 11,
        total_tokens: 18,
        prompt_tokens_details: null,
      },
      system_fingerprint: 'fp-build-1',
      service_tier: null,
      prompt_logprobs: null,
      prompt_text: null,
      prompt_token_ids: null,
      kv_transfer_params: null,
    });
  });

  it('reads reasoning_content (vLLM <= 0.11) as reasoning', () => {
    const completion = toClientChatCompletion(
      readUpstreamChatCompletion(
        vllmCompletion({ reasoning: 'old name', reasoningField: 'reasoning_content' }),
      ),
      options,
    );
    expect(completion.choices[0]?.message.reasoning).toBe('old name');
  });

  it('removes reasoning for models that hide thinking', () => {
    const completion = toClientChatCompletion(
      readUpstreamChatCompletion(vllmCompletion({ reasoning: 'secret' })),
      { ...options, clearThinking: true },
    );
    expect(completion.choices[0]?.message.reasoning).toBeNull();
  });

  it('fills created when the upstream sent none', () => {
    const { id: _id, created: _created, ...bare } = vllmCompletion();
    const completion = toClientChatCompletion(readUpstreamChatCompletion(bare), options);
    expect(completion.created).toBe(1_767_225_600);
  });

  it("never passes the upstream's id on: vLLM builds it from the forwarded request id, a free-form string", () => {
    const completion = toClientChatCompletion(
      readUpstreamChatCompletion({ ...vllmCompletion(), id: 'chatcmpl-client supplied id' }),
      options,
    );
    expect(completion.id).toMatch(/^chatcmpl-[0-9a-f]+$/);
  });
});

describe('readUpstreamChatCompletion', () => {
  it('refuses a 2xx body without choices as an upstream failure (502)', () => {
    expect(refusal(() => readUpstreamChatCompletion({ id: 'x' }))).toEqual({
      status: 502,
      code: 'upstream_error',
    });
    expect(refusal(() => readUpstreamChatCompletion('<html>'))).toEqual({
      status: 502,
      code: 'upstream_error',
    });
    expect(refusal(() => readUpstreamChatCompletion({ choices: [] }))).toEqual({
      status: 502,
      code: 'upstream_error',
    });
  });

  it('maps an error envelope sent with status 200 by its integer code', () => {
    expect(
      refusal(() =>
        readUpstreamChatCompletion({
          error: { message: 'bad', type: 'BadRequestError', param: 'x', code: 400 },
        }),
      ),
    ).toEqual({
      status: 400,
      code: 'upstream_rejected',
    });
    expect(
      refusal(() =>
        readUpstreamChatCompletion({
          error: { message: 'boom', type: 'InternalServerError', code: 500 },
        }),
      ),
    ).toEqual({
      status: 502,
      code: 'upstream_error',
    });
  });
});
