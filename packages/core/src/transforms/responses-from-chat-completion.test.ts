import { describe, expect, it } from 'vitest';
import { countingIds } from '../handlers/test-ports.js';
import { vllmCompletion } from '../handlers/text-test-ports.js';
import { readUpstreamChatCompletion } from '../protocols/openai/chat-upstream-completion.js';
import {
  chatCompletionToImageFormResponse,
  chatCompletionToResponse,
} from './responses-from-chat-completion.js';
import type { ResponsesEcho } from './responses-object.js';

const echo: ResponsesEcho = {
  instructions: null,
  max_output_tokens: null,
  max_tool_calls: null,
  metadata: null,
  parallel_tool_calls: true,
  reasoning: null,
  service_tier: 'auto',
  temperature: null,
  text: null,
  tool_choice: 'auto',
  tools: [],
  top_logprobs: null,
  top_p: null,
  truncation: 'disabled',
  user: null,
};

function options(clearThinking = false) {
  return {
    model: 'alpha36-35b-a3b-instruct',
    clearThinking,
    ids: countingIds(),
    createdAt: 1_767_225_600,
    echo,
    logprobs: false,
  };
}

describe('chatCompletionToResponse (text form)', () => {
  it("has every field of the spec's table, with its nulls and the usage per-turn arrays", () => {
    const response = chatCompletionToResponse(
      readUpstreamChatCompletion(
        vllmCompletion({ usage: { prompt: 20, completion: 5, cached: 4 } }),
      ),
      options(),
    );
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
      store: false,
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
        input_tokens_details: {
          cached_tokens: 4,
          cached_tokens_per_turn: [4],
          input_tokens_per_turn: [20],
        },
        output_tokens: 5,
        output_tokens_details: {
          output_tokens_per_turn: [5],
          reasoning_tokens: 0,
          tool_output_tokens: 0,
          tool_output_tokens_per_turn: [0],
        },
        total_tokens: 25,
      },
    });
    expect(response.id).not.toBe(response.output[0]?.id);
  });

  it('is incomplete with reason max_output_tokens when the token limit stopped it', () => {
    const response = chatCompletionToResponse(
      readUpstreamChatCompletion(vllmCompletion({ finishReason: 'length' })),
      options(),
    );
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output[0]?.status).toBe('incomplete');
  });

  it('puts exposed reasoning first as a reasoning item, and leaves it out for models that hide it', () => {
    const completion = readUpstreamChatCompletion(vllmCompletion({ reasoning: 'Let me think.' }));
    const exposed = chatCompletionToResponse(completion, options());
    expect(exposed.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(exposed.output[0]).toMatchObject({
      id: expect.stringMatching(/^rs_\d+$/),
      summary: [],
      content: [{ type: 'reasoning_text', text: 'Let me think.' }],
    });
    expect(exposed.output_text).toBe('Hello there.');
    expect(
      chatCompletionToResponse(completion, options(true)).output.map((item) => item.type),
    ).toEqual(['message']);
  });

  it('echoes the applied request values', () => {
    const applied: ResponsesEcho = {
      ...echo,
      instructions: 'Be brief.',
      max_output_tokens: 50,
      reasoning: { effort: 'low', summary: null },
      temperature: 0.4,
      top_p: 0.9,
      user: 'u-1',
      metadata: { run: '7' },
      max_tool_calls: 2,
    };
    const response = chatCompletionToResponse(readUpstreamChatCompletion(vllmCompletion()), {
      ...options(),
      echo: applied,
    });
    expect(response).toMatchObject(applied);
  });
});

describe('chatCompletionToResponse: tool calls and log-probabilities', () => {
  const calls = [
    { id: 'chatcmpl-tool-1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { id: 'chatcmpl-tool-2', name: 'get_time', arguments: '{}' },
  ];

  it('answers each upstream tool call as a function_call item (no empty message), in order', () => {
    const completion = readUpstreamChatCompletion(
      vllmCompletion({ content: null, toolCalls: calls, finishReason: 'tool_calls' }),
    );
    const response = chatCompletionToResponse(completion, options());
    expect(response.status).toBe('completed');
    expect(response.output).toEqual([
      {
        id: expect.stringMatching(/^fc_\d+$/),
        type: 'function_call',
        status: 'completed',
        arguments: '{"city":"Paris"}',
        call_id: 'chatcmpl-tool-1',
        name: 'get_weather',
      },
      {
        id: expect.stringMatching(/^fc_\d+$/),
        type: 'function_call',
        status: 'completed',
        arguments: '{}',
        call_id: 'chatcmpl-tool-2',
        name: 'get_time',
      },
    ]);
    expect(response.output_text).toBe('');
  });

  it('keeps text said before the calls as a message item first, and cuts the calls at max_tool_calls', () => {
    const completion = readUpstreamChatCompletion(
      vllmCompletion({ content: 'Let me check.', toolCalls: calls, finishReason: 'tool_calls' }),
    );
    const response = chatCompletionToResponse(completion, {
      ...options(),
      echo: { ...echo, max_tool_calls: 1 },
    });
    expect(response.output.map((item) => item.type)).toEqual(['message', 'function_call']);
    expect(response.output_text).toBe('Let me check.');
  });

  it('gives a call the upstream sent without an id a call_ id the client can answer by', () => {
    const completion = readUpstreamChatCompletion(
      vllmCompletion({ content: null, toolCalls: [{ id: '', name: 'f', arguments: '{}' }] }),
    );
    expect(chatCompletionToResponse(completion, options()).output[0]).toMatchObject({
      type: 'function_call',
      call_id: expect.stringMatching(/^call_[0-9a-f]+$/),
    });
  });

  it('refuses an upstream tool call without a function name as an upstream failure (502)', () => {
    const completion = readUpstreamChatCompletion(
      vllmCompletion({ content: null, toolCalls: [{ id: 'c', name: '', arguments: '{}' }] }),
    );
    expect(() => chatCompletionToResponse(completion, options())).toThrow(
      expect.objectContaining({ status: 502 }),
    );
  });

  it('puts the upstream log-probabilities on the output_text part when they were asked for', () => {
    const logprobs = {
      content: [
        {
          token: 'Hi',
          logprob: -0.25,
          bytes: [72, 105],
          top_logprobs: [
            { token: 'Hi', logprob: -0.25, bytes: [72, 105] },
            { token: 'Yo', logprob: -2, bytes: [89, 111] },
          ],
        },
      ],
    };
    const completion = readUpstreamChatCompletion(vllmCompletion({ content: 'Hi', logprobs }));
    const part = chatCompletionToResponse(completion, { ...options(), logprobs: true }).output[0];
    expect(part).toMatchObject({
      type: 'message',
      content: [{ type: 'output_text', text: 'Hi', logprobs: logprobs.content }],
    });
    expect(chatCompletionToResponse(completion, options()).output[0]).toMatchObject({
      content: [{ logprobs: null }],
    });
  });
});

describe('chatCompletionToImageFormResponse', () => {
  it("has the spec's form for image input: resp-<hex>, object responses, content a single object, finish_reason", () => {
    const response = chatCompletionToImageFormResponse(
      readUpstreamChatCompletion(
        vllmCompletion({ content: 'A cat on a mat.', usage: { prompt: 900, completion: 6 } }),
      ),
      options(),
    );
    expect(response).toEqual({
      id: expect.stringMatching(/^resp-[0-9a-f]+$/),
      object: 'responses',
      created: 1_767_225_600,
      model: 'alpha36-35b-a3b-instruct',
      output: [
        {
          type: 'message',
          id: expect.any(String),
          role: 'assistant',
          content: { type: 'output_text', text: 'A cat on a mat.', annotations: [] },
          finish_reason: 'stop',
        },
      ],
      usage: {
        input_tokens: 900,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 6,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 906,
      },
    });
  });
});
