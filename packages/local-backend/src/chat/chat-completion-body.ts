import type { DecodeOutcome } from './decode-choice.js';
import { isCompleteToolCall } from './tool-call-reply.js';
import type { ToolCallPlan } from './tool-call-reply.js';

export interface ChatCompletionContext {
  id: string;
  created: number;
  model: string;
  promptTokenIds: number[];
  returnTokenIds: boolean;
  reasoningEnabled: boolean;
  /** Per choice: the tool call its text is, if any. */
  toolCalls: ReadonlyArray<ToolCallPlan | undefined>;
}

/** A server build label, as vLLM's newer fingerprint module fills system_fingerprint. */
export const systemFingerprint = 'infergate-local-backend';

/** vLLM's non-streaming ChatCompletionResponse: plain model_dump(), so every unset field is present as null. */
export function chatCompletionBody(
  context: ChatCompletionContext,
  outcomes: readonly DecodeOutcome[],
): Record<string, unknown> {
  const completionTokens = outcomes.reduce((sum, outcome) => sum + outcome.tokenIds.length, 0);
  const usage: Record<string, unknown> = {
    prompt_tokens: context.promptTokenIds.length,
    total_tokens: context.promptTokenIds.length + completionTokens,
    completion_tokens: completionTokens,
    prompt_tokens_details: null,
  };
  if (context.reasoningEnabled)
    usage.completion_tokens_details = {
      reasoning_tokens: outcomes.reduce((sum, outcome) => sum + outcome.reasoningTokens, 0),
    };
  return {
    id: context.id,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    choices: outcomes.map((outcome, index) => {
      const toolCall = context.toolCalls[index];
      const called = toolCall !== undefined && isCompleteToolCall(toolCall, outcome);
      return {
        index,
        message: {
          role: 'assistant',
          content: called ? null : outcome.content,
          refusal: null,
          annotations: null,
          audio: null,
          function_call: null,
          tool_calls: called
            ? [
                {
                  id: toolCall.id,
                  type: 'function',
                  function: { name: toolCall.name, arguments: toolCall.arguments },
                },
              ]
            : [],
          reasoning: context.reasoningEnabled ? outcome.reasoning : null,
        },
        logprobs: null,
        finish_reason: called ? 'tool_calls' : outcome.finishReason,
        stop_reason: outcome.stopReason,
        token_ids: context.returnTokenIds ? outcome.tokenIds : null,
        routed_experts: null,
      };
    }),
    service_tier: null,
    system_fingerprint: systemFingerprint,
    usage,
    prompt_logprobs: null,
    prompt_token_ids: context.returnTokenIds ? context.promptTokenIds : null,
    prompt_text: null,
    kv_transfer_params: null,
  };
}
