import { describe, expect, it } from 'vitest';
import { countingIds } from '../handlers/test-ports.js';
import { vllmCompletion } from '../handlers/text-test-ports.js';
import { readUpstreamChatCompletion } from './chat-upstream-completion.js';
import { chatCompletionToImageFormResponse, chatCompletionToResponse } from './responses-from-chat-completion.js';
import type { ResponsesEcho } from './responses-object.js';

const echo: ResponsesEcho = { instructions: null, max_output_tokens: null, reasoning: null, temperature: null, top_p: null, user: null };

function options(clearThinking = false) {
  return { model: 'alpha36-35b-a3b-instruct', clearThinking, ids: countingIds(), createdAt: 1_767_225_600, echo };
}

describe('chatCompletionToResponse (text form)', () => {
  it("has every field of the spec's table, with its nulls and the usage per-turn arrays", () => {
    const response = chatCompletionToResponse(readUpstreamChatCompletion(vllmCompletion({ usage: { prompt: 20, completion: 5, cached: 4 } })), options());
    expect(response).toEqual({
      id: expect.stringMatching(/^resp_\d+$/),
      object: 'response',
      created_at: 1_767_225_600,
      model: 'alpha36-35b-a3b-instruct',
      status: 'completed',
      output: [
        {
          id: expect.stringMatching(/^msg_\d+$/),
          type: 'message',
          role: 'assistant',
          status: 'completed',
          phase: null,
          content: [{ type: 'output_text', text: 'Hello there.', annotations: [], logprobs: null }],
        },
      ],
      output_text: 'Hello there.',
      background: false,
      parallel_tool_calls: true,
      service_tier: 'auto',
      tool_choice: 'auto',
      tools: [],
      truncation: 'disabled',
      incomplete_details: null,
      input_messages: null,
      instructions: null,
      max_output_tokens: null,
      max_tool_calls: null,
      metadata: null,
      output_messages: null,
      previous_response_id: null,
      prompt: null,
      reasoning: null,
      temperature: null,
      text: null,
      top_logprobs: null,
      top_p: null,
      user: null,
      usage: {
        input_tokens: 20,
        input_tokens_details: { cached_tokens: 4, cached_tokens_per_turn: [4], input_tokens_per_turn: [20] },
        output_tokens: 5,
        output_tokens_details: { output_tokens_per_turn: [5], reasoning_tokens: 0, tool_output_tokens: 0, tool_output_tokens_per_turn: [0] },
        total_tokens: 25,
      },
    });
    expect(response.id).not.toBe(response.output[0]?.id);
  });

  it('is incomplete with reason max_output_tokens when the token limit stopped it', () => {
    const response = chatCompletionToResponse(readUpstreamChatCompletion(vllmCompletion({ finishReason: 'length' })), options());
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output[0]?.status).toBe('incomplete');
  });

  it('puts exposed reasoning first as a reasoning item, and leaves it out for models that hide it', () => {
    const completion = readUpstreamChatCompletion(vllmCompletion({ reasoning: 'Let me think.' }));
    const exposed = chatCompletionToResponse(completion, options());
    expect(exposed.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(exposed.output[0]).toMatchObject({ id: expect.stringMatching(/^rs_\d+$/), summary: [], content: [{ type: 'reasoning_text', text: 'Let me think.' }] });
    expect(exposed.output_text).toBe('Hello there.');
    expect(chatCompletionToResponse(completion, options(true)).output.map((item) => item.type)).toEqual(['message']);
  });

  it('echoes the applied request values', () => {
    const applied: ResponsesEcho = { instructions: 'Be brief.', max_output_tokens: 50, reasoning: { effort: 'low' }, temperature: 0.4, top_p: 0.9, user: 'u-1' };
    const response = chatCompletionToResponse(readUpstreamChatCompletion(vllmCompletion()), { ...options(), echo: applied });
    expect(response).toMatchObject(applied);
  });
});

describe('chatCompletionToImageFormResponse', () => {
  it("has the spec's form for image input: resp-<hex>, object responses, content a single object, finish_reason", () => {
    const response = chatCompletionToImageFormResponse(readUpstreamChatCompletion(vllmCompletion({ content: 'A cat on a mat.', usage: { prompt: 900, completion: 6 } })), options());
    expect(response).toEqual({
      id: expect.stringMatching(/^resp-[0-9a-f]+$/),
      object: 'responses',
      created: 1_767_225_600,
      model: 'alpha36-35b-a3b-instruct',
      output: [{ type: 'message', id: expect.any(String), role: 'assistant', content: { type: 'output_text', text: 'A cat on a mat.', annotations: [] }, finish_reason: 'stop' }],
      usage: { input_tokens: 900, input_tokens_details: { cached_tokens: 0 }, output_tokens: 6, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 906 },
    });
  });
});
