import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../errors/gateway-error.js';
import { readImageEnhancedPrompt } from './image-enhanced-prompt.js';
import {
  imagePromptEnhancementRequest,
  promptEnhancementMaxTokens,
} from './image-prompt-enhancement-request.js';

function completion(
  content: string | null,
  usage: Record<string, number> = { prompt_tokens: 57, completion_tokens: 88, total_tokens: 145 },
) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
    usage,
  };
}

describe('imagePromptEnhancementRequest', () => {
  it('asks the text model, non-streaming and without thinking, to rewrite the prompt', () => {
    const call = imagePromptEnhancementRequest('served-122b', 'a fox', 'generation');
    expect(call.path).toBe('/v1/chat/completions');
    expect(call.body).toMatchObject({
      model: 'served-122b',
      max_tokens: promptEnhancementMaxTokens,
      stream: false,
      chat_template_kwargs: { enable_thinking: false },
    });
    const messages = call.body.messages as Array<{ role: string; content: string }>;
    expect(messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(messages[1]?.content).toBe('a fox');
    expect(messages[0]?.content).toMatch(/image generation/);
    expect(messages[0]?.content).toMatch(/only/);
    expect(promptEnhancementMaxTokens).toBeGreaterThan(0);
  });

  it('words the instruction for an edit when the request is an edit', () => {
    const messages = imagePromptEnhancementRequest('served-122b', 'purple sky', 'edit').body
      .messages as Array<{ role: string; content: string }>;
    expect(messages[0]?.content).toMatch(/image editing/);
  });
});

describe('readImageEnhancedPrompt', () => {
  it('returns the answer and the tokens of the call', () => {
    expect(
      readImageEnhancedPrompt(
        completion('A red fox curled in fresh snow at dawn, soft pink light.'),
      ),
    ).toEqual({
      prompt: 'A red fox curled in fresh snow at dawn, soft pink light.',
      inputTokens: 57,
      outputTokens: 88,
    });
  });

  it.each([
    ['  \n A fox in snow. \n', 'A fox in snow.'],
    ['"A fox in snow."', 'A fox in snow.'],
    ["'A fox in snow.'", 'A fox in snow.'],
    ['\u201cA fox in snow.\u201d', 'A fox in snow.'],
    ['` "A fox in snow." `', 'A fox in snow.'],
    ['<think>\n\n</think>\n\nA fox in snow.', 'A fox in snow.'],
    ['A "quoted" fox', 'A "quoted" fox'],
  ])('strips the wrapping of %j', (content, prompt) => {
    expect(readImageEnhancedPrompt(completion(content)).prompt).toBe(prompt);
  });

  it('counts zero tokens when the usage is missing', () => {
    const body = { choices: [{ message: { content: 'A fox.' } }] };
    expect(readImageEnhancedPrompt(body)).toEqual({
      prompt: 'A fox.',
      inputTokens: 0,
      outputTokens: 0,
    });
  });

  it.each([
    ['an empty answer', completion('')],
    ['only quotes', completion('""')],
    ['a null content', completion(null)],
    ['no choices', { choices: [] }],
    ['an error body', { error: { message: 'x' } }],
  ])('answers 502 for %s', (_name, body) => {
    try {
      readImageEnhancedPrompt(body);
    } catch (error) {
      expect(isGatewayError(error) && { status: error.status, code: error.code }).toEqual({
        status: 502,
        code: 'upstream_error',
      });
      return;
    }
    throw new Error('expected a failure');
  });
});
