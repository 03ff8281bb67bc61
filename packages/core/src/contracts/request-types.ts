import type { ReasoningEffort } from '../catalogue/catalogue-types.js';
import type { ChatCompletionToolCall } from '../transforms/chat-completion-response.js';
import type {
  ResponsesTextFormatEcho,
  ResponsesToolChoiceEcho,
} from '../transforms/responses-object.js';

/*
 * The request bodies a client sends, as zod-free interfaces for the SDK's declarations (which must
 * not name zod). contract-types.test.ts holds each to its request schema in src/schemas: every value
 * an interface allows is one the schema accepts. `model` is any string here; the SDK narrows it to
 * the catalogue's ids.
 */

/** The spec's "Extra sampling parameters", accepted by /v1/responses and /v1/chat/completions. */
export interface ExtraSamplingParams {
  use_beam_search?: boolean;
  /** 1 to the vocabulary size. */
  top_k?: number;
  /** 0.0 to 1.0, relative to the top token's probability. */
  min_p?: number;
  /** From 1.0. */
  repetition_penalty?: number;
  length_penalty?: number;
  stop_token_ids?: number[];
  include_stop_str_in_output?: boolean;
  ignore_eos?: boolean;
  /** 0 to max_tokens. */
  min_tokens?: number;
  skip_special_tokens?: boolean;
  spaces_between_special_tokens?: boolean;
  truncate_prompt_tokens?: number;
  prompt_logprobs?: number;
  allowed_token_ids?: number[];
  bad_words?: string[];
}

/** Sampling parameters shared by both text endpoints. */
export interface SamplingParams extends ExtraSamplingParams {
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
}

export interface ChatTextPart {
  type: 'text';
  text: string;
}

/** `url` is a base64 data URL: the gateway never fetches a URL (docs/design.md). */
export interface ChatImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

export type ChatMessageParam =
  | { role: 'system' | 'developer'; content: string | ChatTextPart[]; name?: string }
  | { role: 'user'; content: string | Array<ChatTextPart | ChatImagePart>; name?: string }
  | {
      role: 'assistant';
      content?: string | ChatTextPart[] | null;
      name?: string;
      reasoning?: string | null;
      reasoning_content?: string | null;
      /** The model's tool calls, sent back on the assistant message of the next request. */
      tool_calls?: ChatCompletionToolCall[];
      // A message taken from an earlier ChatCompletion carries these as null (read, then dropped).
      refusal?: null;
      annotations?: null;
      audio?: null;
      function_call?: null;
    }
  | { role: 'tool'; content: string | ChatTextPart[]; tool_call_id: string };

export interface ChatTool {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters?: Record<string, unknown>;
    strict?: boolean;
  };
}

export type ChatResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: {
        name: string;
        description?: string;
        schema?: Record<string, unknown>;
        strict?: boolean;
      };
    };

export type ChatToolChoice =
  'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

/** Only with `stream: true`. */
export interface ChatStreamOptions {
  /** Adds a final chunk (whose choices are empty) with the usage. */
  include_usage?: boolean;
  continuous_usage_stats?: boolean;
}

/** Body of POST /v1/chat/completions. */
export interface ChatCompletionsParams extends SamplingParams {
  model: string;
  messages: ChatMessageParam[];
  stream?: boolean;
  stream_options?: ChatStreamOptions;
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
  tool_choice?: ChatToolChoice;
  parallel_tool_calls?: boolean;
  /** Only the models with a reasoning policy take it; the -low variants are locked to low. */
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

export interface ResponsesInputText {
  type: 'input_text';
  text: string;
}

/** `image_url` is a base64 data URL; the gateway never fetches a URL. */
export interface ResponsesInputImage {
  type: 'input_image';
  image_url: string;
  detail?: 'auto' | 'low' | 'high';
}

type ReplayedText = ResponsesInputText | { type: 'output_text'; text: string };

export type ResponsesInputMessage = { type?: 'message' } & (
  | { role: 'user'; content: string | Array<ResponsesInputText | ResponsesInputImage> }
  | { role: 'system' | 'developer'; content: string | ReplayedText[] }
  // An assistant turn replayed from an earlier answer.
  | {
      role: 'assistant';
      content: string | Array<ReplayedText | { type: 'refusal'; refusal: string }>;
    }
);

/**
 * What an agent sends back as history, the gateway storing nothing: earlier messages, the model's
 * function calls, their results, and reasoning items (accepted, not sent to the model).
 */
export type ResponsesInputItemParam =
  | ResponsesInputMessage
  | {
      type: 'function_call';
      call_id: string;
      name: string;
      arguments: string;
      id?: string;
      status?: string;
    }
  | {
      type: 'function_call_output';
      call_id: string;
      output: string | ResponsesInputText[];
      id?: string;
      status?: string;
    }
  | {
      type: 'reasoning';
      id?: string;
      summary?: unknown[];
      content?: unknown[];
      encrypted_content?: string | null;
    };

/** A function tool, in the responses form (flat, not nested under `function`). */
export interface ResponsesFunctionToolParam {
  type: 'function';
  name: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
}

/** Body of POST /v1/responses. */
export interface ResponsesParams extends SamplingParams {
  model: string;
  input: string | ResponsesInputItemParam[];
  stream?: boolean;
  stream_options?: { include_obfuscation?: boolean };
  /** The completion API's name for the spec's max_tokens; send one of the two. */
  max_output_tokens?: number;
  instructions?: string;
  /** effort follows reasoning_effort's rules on the models that take it; elsewhere it is ignored (x-infergate-ignored-params). */
  reasoning?: {
    effort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';
    summary?: 'auto' | 'concise' | 'detailed';
  };
  tools?: ResponsesFunctionToolParam[];
  tool_choice?: ResponsesToolChoiceEcho;
  parallel_tool_calls?: boolean;
  max_tool_calls?: number;
  text?: { format?: ResponsesTextFormatEcho; verbosity?: 'low' | 'medium' | 'high' };
  /** Any value is accepted; the gateway stores nothing and answers `store: false`. */
  store?: boolean;
  metadata?: Record<string, string>;
  include?: string[];
  top_logprobs?: number;
  user?: string;
  safety_identifier?: string;
  prompt_cache_key?: string;
  service_tier?: 'auto' | 'default' | 'flex' | 'scale' | 'priority';
  truncation?: 'auto' | 'disabled';
  /** Only false: a background response would need storing. */
  background?: false;
  /** Refused (400): they need stored state; send the whole history as input items instead. */
  previous_response_id?: never;
  conversation?: never;
  prompt?: never;
}

/** Body of POST /v1/embeddings. */
export interface EmbeddingsParams {
  model: string;
  /** Text(s), or token ids (one array or several). */
  input: string | string[] | number[] | number[][];
  /** float (default) or base64 (little-endian float32 bytes). */
  encoding_format?: 'float' | 'base64';
  /** Only for models with configurable dimensions (alpha3-vl-embedding-8b: 128 to 4096). */
  dimensions?: number;
  user?: string;
}

export interface CompatTextBlock {
  type: 'text';
  text: string;
}

/** `url` is a base64 data URL. */
export interface CompatImageBlock {
  type: 'image_url';
  image_url: { url: string };
}

export interface CompatEmbedInputParam {
  content: Array<CompatTextBlock | CompatImageBlock>;
}

/** Body of POST /compat/v2/embed. */
export interface CompatEmbedParams {
  model: string;
  /** The spec's form; send `inputs` or `texts`, not both. */
  inputs?: CompatEmbedInputParam[];
  /** The embed API's text-only form. */
  texts?: string[];
  /** classification and clustering are not supported. */
  input_type: 'search_document' | 'search_query' | 'image';
  /** One of the model's allowed output dimensions. */
  output_dimension?: number;
  /** Default [float]; the int8/binary forms are not supported. */
  embedding_types?: Array<'float' | 'base64'>;
  truncate?: 'NONE' | 'START' | 'END';
  max_tokens?: number;
}

/** Body of POST /compat/v2/rerank. */
export interface CompatRerankParams {
  model: string;
  query: string;
  documents: string[];
  /** Number of top results to return (default: all). */
  top_n?: number;
  max_tokens_per_doc?: number;
}

/** Body of POST /tokenize. */
export interface TokenizeParams {
  model: string;
  prompt: string;
  add_special_tokens?: boolean;
}

/** standard and auto are served as medium, hd as high. */
export type ImageQualityParam = 'low' | 'medium' | 'standard' | 'high' | 'hd' | 'auto';
export type ImageOutputFormatParam = 'png' | 'jpeg' | 'webp';
/** `<width>x<height>`, up to 2 megapixels. */
export type ImageSizeParam = `${number}x${number}`;

/** Body of POST /v1/images/generations. */
export interface ImageGenerationParams {
  model: string;
  prompt: string;
  output_format: ImageOutputFormatParam;
  quality: ImageQualityParam;
  size: ImageSizeParam;
  /** Only 1 (0 is served as 1). */
  n?: 0 | 1;
  /** Only b64_json. */
  response_format?: 'b64_json';
}

/** Body of POST /v1/images/edits (JSON). */
export interface ImageEditParams extends ImageGenerationParams {
  /** base64 data URLs only; the gateway never fetches a URL. */
  images: Array<{ image_url: string }>;
}
