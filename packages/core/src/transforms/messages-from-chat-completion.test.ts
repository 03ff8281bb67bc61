import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/gateway-error.js';
import { countingIds } from '../handlers/test-ports.js';
import { vllmCompletion } from '../handlers/text-test-ports.js';
import { upstreamChatCompletionSchema } from '../schemas/upstream-chat-completion-schema.js';
import { chatCompletionToMessage } from './messages-from-chat-completion.js';

function messageOf(
  completion: unknown,
  options: { clearThinking?: boolean; stopSequences?: string[] } = {},
) {
  return chatCompletionToMessage(upstreamChatCompletionSchema.parse(completion), {
    model: 'general-std',
    clearThinking: options.clearThinking ?? false,
    ids: countingIds(),
    stopSequences: options.stopSequences,
  });
}

describe('chatCompletionToMessage', () => {
  it('answers the Message object: msg_ id, one text block, end_turn, usage in Messages terms', () => {
    const message = messageOf(vllmCompletion({ usage: { prompt: 20, completion: 7, cached: 16 } }));
    expect(message).toEqual({
      id: expect.stringMatching(/^msg_[0-9a-f]{24}$/),
      type: 'message',
      role: 'assistant',
      model: 'general-std',
      content: [{ type: 'text', text: 'Hello there.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      // The Messages API counts cache reads apart from input_tokens.
      usage: {
        input_tokens: 4,
        output_tokens: 7,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 16,
      },
    });
  });

  it('puts thinking first where the model exposes it, and leaves it out where it hides it', () => {
    const completion = vllmCompletion({ reasoning: 'Let me think.', content: 'Four.' });
    expect(messageOf(completion).content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: '' },
      { type: 'text', text: 'Four.' },
    ]);
    expect(messageOf(completion, { clearThinking: true }).content).toEqual([
      { type: 'text', text: 'Four.' },
    ]);
  });

  it('turns tool calls into tool_use blocks with parsed input, stop_reason tool_use', () => {
    const message = messageOf(
      vllmCompletion({
        content: null,
        finishReason: 'tool_calls',
        toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' }],
      }),
    );
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Paris' } },
    ]);
    expect(message.stop_reason).toBe('tool_use');
  });

  it('refuses tool arguments that are not a JSON object as the upstream failure (502)', () => {
    const broken = vllmCompletion({
      finishReason: 'tool_calls',
      toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{"city":' }],
    });
    expect(() => messageOf(broken)).toThrow(GatewayError);
    try {
      messageOf(broken);
    } catch (error) {
      expect((error as GatewayError).status).toBe(502);
    }
  });

  it('says max_tokens on a length stop and stop_sequence with the matched string', () => {
    expect(messageOf(vllmCompletion({ finishReason: 'length' })).stop_reason).toBe('max_tokens');
    const stopped = vllmCompletion();
    (stopped.choices[0] as Record<string, unknown>).stop_reason = 'END';
    const message = messageOf(stopped, { stopSequences: ['END'] });
    expect(message.stop_reason).toBe('stop_sequence');
    expect(message.stop_sequence).toBe('END');
  });
});
