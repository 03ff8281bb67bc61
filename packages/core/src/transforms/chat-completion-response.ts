import type { UpstreamChatCompletion } from '../schemas/upstream-chat-completion-schema.js';

/** The spec's chat completion object (Resources: "Chat completion object"). */
export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: ChatCompletionChoice[];
  usage: {
    completion_tokens: number;
    prompt_tokens: number;
    total_tokens: number;
    prompt_tokens_details: unknown;
  };
  system_fingerprint: string;
  service_tier: null;
  prompt_logprobs: unknown;
  prompt_text: null;
  prompt_token_ids: null;
  kv_transfer_params: null;
}

/** A tool call of the model, in the completion API's form. */
export interface ChatCompletionToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatCompletionChoice {
  index: number;
  finish_reason: string | null;
  logprobs: unknown;
  stop_reason: number | string | null;
  token_ids: null;
  routed_experts: null;
  message: {
    role: 'assistant';
    content: string | null;
    tool_calls: ChatCompletionToolCall[];
    annotations: null;
    audio: null;
    function_call: null;
    reasoning: string | null;
    refusal: null;
  };
}

export interface ChatCompletionShapeOptions {
  /** The catalogue id actually used (docs/design.md: a virtual id resolves to its catalogue id). */
  model: string;
  /** The model hides its thinking: reasoning never reaches the client. */
  clearThinking: boolean;
  /**
   * The gateway's own `chatcmpl-<hex>` id. vLLM builds its id from the forwarded x-request-id, which
   * is a client's free-form string: the spec's form is kept by never passing the upstream's id on.
   */
  id: string;
  /** Unix seconds, used when the upstream sent no `created`. */
  now: number;
}

/**
 * `system_fingerprint` when the upstream sends none (vLLM by default, Ollama's and SGLang's older
 * answers): the spec types the field as a string ("server build label"), and clients that compare
 * fingerprints between calls expect one. The upstream's own label is kept when it has one (TGI's
 * version, llama.cpp's build, `fp_ollama`), since that is the build that produced the answer.
 */
export const defaultSystemFingerprint = 'infergate';

/**
 * The upstream completion in the spec's shape: every field present (nulls included), `model` the
 * catalogue id, reasoning read from `reasoning` or `reasoning_content` and emitted as `reasoning`.
 * Fields a newer vLLM adds (metrics, ec_transfer_params) and the upstream's routed_experts blob are
 * not passed on; neither are token_ids, which the gateway never asks for.
 */
export function toClientChatCompletion(
  upstream: UpstreamChatCompletion,
  options: ChatCompletionShapeOptions,
): ChatCompletion {
  const usage = upstream.usage;
  const promptTokens = usage?.prompt_tokens ?? 0;
  const completionTokens = usage?.completion_tokens ?? 0;
  return {
    id: options.id,
    object: 'chat.completion',
    created: upstream.created ?? options.now,
    model: options.model,
    choices: upstream.choices.map((choice, position) => ({
      index: choice.index ?? position,
      finish_reason: choice.finish_reason ?? null,
      logprobs: choice.logprobs ?? null,
      stop_reason: choice.stop_reason ?? null,
      token_ids: null,
      routed_experts: null,
      message: {
        role: 'assistant',
        content: choice.message.content ?? null,
        // Passed on as the model server wrote them: vLLM's are in the completion API's form, and the
        // gateway does not rewrite a chat answer's calls (the responses bridge reads them, chat-tool-calls.ts).
        tool_calls: (choice.message.tool_calls ?? []) as ChatCompletionToolCall[],
        annotations: null,
        audio: null,
        function_call: null,
        reasoning: options.clearThinking
          ? null
          : (choice.message.reasoning ?? choice.message.reasoning_content ?? null),
        refusal: null,
      },
    })),
    usage: {
      completion_tokens: completionTokens,
      prompt_tokens: promptTokens,
      total_tokens: usage?.total_tokens ?? promptTokens + completionTokens,
      prompt_tokens_details: usage?.prompt_tokens_details ?? null,
    },
    system_fingerprint: upstream.system_fingerprint || defaultSystemFingerprint,
    service_tier: null,
    prompt_logprobs: upstream.prompt_logprobs ?? null,
    prompt_text: null,
    prompt_token_ids: null,
    kv_transfer_params: null,
  };
}
