import type { DecodeOutcome } from './decode-choice.js';

export interface ChatCompletionContext {
  id: string;
  created: number;
  model: string;
  promptTokenIds: number[];
  returnTokenIds: boolean;
  reasoningEnabled: boolean;
}

/** A server build label, as vLLM's newer fingerprint module fills system_fingerprint. */
export const systemFingerprint = 'infergate-local-backend';

/** vLLM's non-streaming ChatCompletionResponse: plain model_dump(), so every unset field is present as null. */
export function chatCompletionBody(context: ChatCompletionContext, outcomes: readonly DecodeOutcome[]): Record<string, unknown> {
  const completionTokens = outcomes.reduce((sum, outcome) => sum + outcome.tokenIds.length, 0);
  const usage: Record<string, unknown> = {
    prompt_tokens: context.promptTokenIds.length,
    total_tokens: context.promptTokenIds.length + completionTokens,
    completion_tokens: completionTokens,
    prompt_tokens_details: null,
  };
  if (context.reasoningEnabled) usage.completion_tokens_details = { reasoning_tokens: outcomes.reduce((sum, outcome) => sum + outcome.reasoningTokens, 0) };
  return {
    id: context.id,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    choices: outcomes.map((outcome, index) => ({
      index,
      message: {
        role: 'assistant',
        content: outcome.content,
        refusal: null,
        annotations: null,
        audio: null,
        function_call: null,
        tool_calls: [],
        reasoning: context.reasoningEnabled ? outcome.reasoning : null,
      },
      logprobs: null,
      finish_reason: outcome.finishReason,
      stop_reason: outcome.stopReason,
      token_ids: context.returnTokenIds ? outcome.tokenIds : null,
      routed_experts: null,
    })),
    service_tier: null,
    system_fingerprint: systemFingerprint,
    usage,
    prompt_logprobs: null,
    prompt_token_ids: context.returnTokenIds ? context.promptTokenIds : null,
    prompt_text: null,
    kv_transfer_params: null,
  };
}
