import { VllmError } from '../http/vllm-error.js';
import { tokenFloorReaching } from '../text/token-floor.js';
import type { DecodeLimits } from './decode-choice.js';
import type { ChatRequest } from './parse-chat-request.js';

/**
 * vLLM's answer to a prompt that fills the context window, given before the prompt is tokenized when its
 * size alone proves it cannot fit (tokenizing a prompt of megabytes takes seconds and the memory of its ids).
 */
export function refuseOverlongPrompt(prompt: string, contextWindow: number | null): void {
  if (contextWindow === null) return;
  const floor = tokenFloorReaching(prompt, contextWindow);
  if (floor === undefined) return;
  throw VllmError.badRequest(
    `This model's maximum context length is ${contextWindow} tokens. However, your request has at least ${floor} input tokens. Please reduce the length of the input messages.`,
    'input_tokens',
  );
}

/**
 * vLLM's context checks: a prompt that fills the window is 400 `input_tokens`; prompt + max_tokens over it is
 * 400 `max_tokens`; without max_tokens the default is what is left of the window.
 */
export function chatLimits(
  request: ChatRequest,
  promptTokens: number,
  contextWindow: number | null,
): DecodeLimits {
  let maxTokens = request.maxTokens;
  if (contextWindow !== null) {
    if (promptTokens >= contextWindow) {
      throw VllmError.badRequest(
        `This model's maximum context length is ${contextWindow} tokens. However, your request has ${promptTokens} input tokens. Please reduce the length of the input messages.`,
        'input_tokens',
      );
    }
    const room = contextWindow - promptTokens;
    if (maxTokens !== undefined && maxTokens > room) {
      throw VllmError.badRequest(
        `'max_tokens' or 'max_completion_tokens' is too large: ${maxTokens}. This model's maximum context length is ${contextWindow} tokens and your request has ${promptTokens} input tokens (${maxTokens} > ${contextWindow} - ${promptTokens}).`,
        'max_tokens',
      );
    }
    maxTokens ??= room;
  }
  return {
    maxTokens: maxTokens ?? Number.MAX_SAFE_INTEGER,
    minTokens: request.minTokens,
    stop: request.stop,
    stopTokenIds: request.stopTokenIds,
    ignoreEos: request.ignoreEos,
    includeStopStrInOutput: request.includeStopStrInOutput,
    badWords: request.badWords,
  };
}
