import { describe, expect, it } from 'vitest';
import { VllmError } from '../http/vllm-error.js';
import { longestTokenBytes } from '../text/longest-token-bytes.js';
import { refuseOverlongPrompt } from './chat-limits.js';

function refusal(run: () => void): VllmError {
  try {
    run();
  } catch (error) {
    if (error instanceof VllmError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('refuseOverlongPrompt', () => {
  it('refuses a prompt whose size proves it fills the window, as vLLM words an over-long prompt', () => {
    const contextWindow = 1024;
    const error = refusal(() =>
      refuseOverlongPrompt('x'.repeat(contextWindow * longestTokenBytes()), contextWindow),
    );
    expect(error.status).toBe(400);
    expect(error.param).toBe('input_tokens');
    expect(error.message).toBe(
      `This model's maximum context length is ${contextWindow} tokens. However, your request has at least ${contextWindow} input tokens. Please reduce the length of the input messages.`,
    );
  });

  it('leaves prompts that may fit to the tokenizer, and models without a window alone', () => {
    expect(() => refuseOverlongPrompt('x'.repeat(1023 * longestTokenBytes()), 1024)).not.toThrow();
    expect(() => refuseOverlongPrompt('x'.repeat(1_000_000), null)).not.toThrow();
  });
});
