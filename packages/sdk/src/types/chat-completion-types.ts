import type {
  ChatCompletion,
  ChatCompletionChoice,
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
  ChatCompletionChunkDelta,
  ChatCompletionToolCall,
} from '@infergate/core';
import type { TextModelId } from './model-id.js';
import type { SamplingParams } from './sampling-params.js';

export interface ChatTextPart {
  type: 'text';
  text: string;
}

/** `url` is a base64 data URL: the gateway never fetches a URL (DESIGN.md). */
export interface ChatImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

/** A tool call of the model; send it back on the assistant message of the next request. */
export type ChatToolCall = ChatCompletionToolCall;

export type ChatMessageParam =
  | { role: 'system' | 'developer'; content: string | ChatTextPart[]; name?: string }
  | { role: 'user'; content: string | Array<ChatTextPart | ChatImagePart>; name?: string }
  | {
      role: 'assistant';
      content?: string | ChatTextPart[] | null;
      name?: string;
      reasoning?: string | null;
      reasoning_content?: string | null;
      tool_calls?: ChatToolCall[];
      // A message taken from an earlier ChatCompletion carries these as null.
      refusal?: null;
      annotations?: null;
      audio?: null;
      function_call?: null;
    }
  | { role: 'tool'; content: string | ChatTextPart[]; tool_call_id: string };

export interface ChatTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

export type ChatResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; description?: string; schema?: Record<string, unknown>; strict?: boolean } };

/** low, high or max; only beta53-flash-chat and beta53-flash-agent take it, the -low variants are locked to low. */
export type ReasoningEffort = 'low' | 'high' | 'max';

export interface ChatCompletionCreateParamsBase extends SamplingParams {
  model: TextModelId;
  messages: ChatMessageParam[];
  stream?: boolean;
  /** The completion API's name for max_tokens; send one of the two. */
  max_completion_tokens?: number;
  /** 1 to 8. */
  n?: number;
  stop?: string | string[];
  seed?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  logit_bias?: Record<string, number>;
  logprobs?: boolean;
  top_logprobs?: number;
  user?: string;
  response_format?: ChatResponseFormat;
  tools?: ChatTool[];
  tool_choice?: 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };
  parallel_tool_calls?: boolean;
  reasoning_effort?: ReasoningEffort;
  // Completion API fields accepted so that clients sending them work; nothing the upstream acts on.
  store?: boolean;
  metadata?: Record<string, string>;
  service_tier?: 'auto' | 'default' | 'flex' | 'scale' | 'priority';
  safety_identifier?: string;
  prompt_cache_key?: string;
  verbosity?: 'low' | 'medium' | 'high';
  prediction?: { type: 'content'; content: string | ChatTextPart[] };
  /** Only text output is offered. */
  modalities?: Array<'text'>;
}

export interface ChatCompletionCreateParamsNonStreaming extends ChatCompletionCreateParamsBase {
  stream?: false;
}

export interface ChatCompletionCreateParamsStreaming extends ChatCompletionCreateParamsBase {
  stream: true;
  /** `include_usage: true` adds a final chunk with usage, which `collect()` reports. */
  stream_options?: { include_usage?: boolean; continuous_usage_stats?: boolean };
}

export type ChatCompletionCreateParams = ChatCompletionCreateParamsNonStreaming | ChatCompletionCreateParamsStreaming;

/** The spec's "Chat completion object", as core builds it. */
export type { ChatCompletion, ChatCompletionChoice };
export type ChatCompletionMessage = ChatCompletionChoice['message'];
export type ChatCompletionUsage = ChatCompletion['usage'];

/** One `data:` event of a streamed chat completion, as core's contract holds the gateway to send it. */
export type { ChatCompletionChunk, ChatCompletionChunkChoice, ChatCompletionChunkDelta };
