import type {
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
  ChatCompletionChunkDelta,
  ChatCompletionToolCall,
  ChatCompletionsParams,
  ChatStreamOptions,
  ReasoningEffort as CoreReasoningEffort,
} from '@infergate/core';
import type { TextModelId } from './model-id.js';

// The request shapes are core's (held to its request schema); the SDK narrows `model` to the catalogue's ids.
export type {
  ChatImagePart,
  ChatMessageParam,
  ChatResponseFormat,
  ChatTextPart,
  ChatTool,
} from '@infergate/core';

/** A tool call of the model; send it back on the assistant message of the next request. */
export type ChatToolCall = ChatCompletionToolCall;

/** low, high or max; only beta53-flash-chat and beta53-flash-agent take it, the -low variants are locked to low. */
export type ReasoningEffort = CoreReasoningEffort;

export interface ChatCompletionCreateParamsBase extends Omit<
  ChatCompletionsParams,
  'model' | 'stream_options'
> {
  model: TextModelId;
}

export interface ChatCompletionCreateParamsNonStreaming extends ChatCompletionCreateParamsBase {
  stream?: false;
}

export interface ChatCompletionCreateParamsStreaming extends ChatCompletionCreateParamsBase {
  stream: true;
  /** `include_usage: true` adds a final chunk with usage, which `collect()` reports. */
  stream_options?: ChatStreamOptions;
}

export type ChatCompletionCreateParams =
  ChatCompletionCreateParamsNonStreaming | ChatCompletionCreateParamsStreaming;

/** The spec's "Chat completion object", as core builds it. */
export type { ChatCompletion, ChatCompletionChoice };
export type ChatCompletionMessage = ChatCompletionChoice['message'];
export type ChatCompletionUsage = ChatCompletion['usage'];

/** One `data:` event of a streamed chat completion, as core's contract holds the gateway to send it. */
export type { ChatCompletionChunk, ChatCompletionChunkChoice, ChatCompletionChunkDelta };
