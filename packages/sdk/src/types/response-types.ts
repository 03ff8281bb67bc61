import type {
  ImageFormResponse,
  ResponsesFunctionCallItem,
  ResponsesMessageItem,
  ResponsesObject,
  ResponsesOutputItem,
  ResponsesOutputText,
  ResponsesReasoningItem,
  ResponsesStatus,
  ResponsesTextFormatEcho,
  ResponsesToolChoiceEcho,
  ResponsesUsage,
  ResponsesContentPartEvent,
  ResponsesFunctionCallArgumentsDeltaEvent,
  ResponsesFunctionCallArgumentsDoneEvent,
  ResponsesLifecycleEvent,
  ResponsesOutputItemEvent,
  ResponsesOutputTextDeltaEvent,
  ResponsesOutputTextDoneEvent,
  ResponsesReasoningTextDeltaEvent,
  ResponsesReasoningTextDoneEvent,
  ResponsesStreamEvent,
} from '@infergate/core';
import type { TextModelId } from './model-id.js';
import type { ReasoningEffort } from './chat-completion-types.js';
import type { SamplingParams } from './sampling-params.js';

export interface ResponseInputText {
  type: 'input_text';
  text: string;
}

/** `image_url` is a base64 data URL; the gateway never fetches a URL. */
export interface ResponseInputImage {
  type: 'input_image';
  image_url: string;
  detail?: 'auto' | 'low' | 'high';
}

export type ResponseInputContent = ResponseInputText | ResponseInputImage;

export type ResponseInputMessage = { type?: 'message' } & (
  | { role: 'user'; content: string | ResponseInputContent[] }
  | { role: 'system' | 'developer'; content: string | Array<ResponseInputText | { type: 'output_text'; text: string }> }
  // An assistant turn replayed from an earlier answer.
  | { role: 'assistant'; content: string | Array<ResponseInputText | { type: 'output_text'; text: string } | { type: 'refusal'; refusal: string }> }
);

/**
 * What an agent sends back as history, the gateway storing nothing: earlier messages, the model's
 * function calls, their results, and reasoning items (accepted, not sent to the model).
 */
export type ResponseInputItem =
  | ResponseInputMessage
  | { type: 'function_call'; call_id: string; name: string; arguments: string; id?: string; status?: string }
  | { type: 'function_call_output'; call_id: string; output: string | ResponseInputText[]; id?: string; status?: string }
  | { type: 'reasoning'; id?: string; summary?: unknown[]; content?: unknown[]; encrypted_content?: string | null };

/** A function tool, in the responses form (flat, not nested under `function`). */
export interface ResponseFunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters?: Record<string, unknown> | null;
  strict?: boolean | null;
}

export type ResponseToolChoice = ResponsesToolChoiceEcho;

export type ResponseTextFormat = ResponsesTextFormatEcho;

export interface ResponseCreateParamsBase extends SamplingParams {
  model: TextModelId;
  input: string | ResponseInputItem[];
  stream?: boolean;
  stream_options?: { include_obfuscation?: boolean };
  /** The completion API's name for the spec's max_tokens; send one of the two. */
  max_output_tokens?: number;
  instructions?: string;
  /** effort follows reasoning_effort's rules on the models that take it; elsewhere it is ignored (x-infergate-ignored-params). */
  reasoning?: { effort?: ReasoningEffort | 'none' | 'minimal' | 'medium' | 'xhigh'; summary?: 'auto' | 'concise' | 'detailed' };
  tools?: ResponseFunctionTool[];
  tool_choice?: ResponseToolChoice;
  parallel_tool_calls?: boolean;
  max_tool_calls?: number;
  text?: { format?: ResponseTextFormat; verbosity?: 'low' | 'medium' | 'high' };
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

export interface ResponseCreateParamsNonStreaming extends ResponseCreateParamsBase {
  stream?: false;
}

export interface ResponseCreateParamsStreaming extends ResponseCreateParamsBase {
  stream: true;
}

export type ResponseCreateParams = ResponseCreateParamsNonStreaming | ResponseCreateParamsStreaming;

// The response objects as core builds them (core's contract schemas are held equal to these types).
export type ResponseOutputText = ResponsesOutputText;
export type ResponseOutputMessage = ResponsesMessageItem;
/** The exposed thinking of thinking models; it comes before the message. */
export type ResponseReasoningItem = ResponsesReasoningItem;
/** A tool call of the model: run the tool and send a function_call_output item with the same call_id. */
export type ResponseFunctionCallItem = ResponsesFunctionCallItem;
export type ResponseOutputItem = ResponsesOutputItem;
export type ResponseUsage = ResponsesUsage;
/** in_progress on stream lifecycle events; incomplete when max tokens cut it; failed when the model server failed. */
export type ResponseStatus = ResponsesStatus;
/** The spec's "Response object of the responses endpoint, text form". */
export type Response = ResponsesObject;
/** The spec's "form for image input": `object` is `responses` and each message's content is one object. */
export type ResponseImageInputForm = ImageFormResponse;

/** What POST /v1/responses returns: the text form, or the image-input form when the input held an image. */
export type ResponseObject = Response | ResponseImageInputForm;

// The streamed events as core's contract holds the gateway to send them.
export type ResponseLifecycleEvent = ResponsesLifecycleEvent;
export type ResponseOutputItemEvent = ResponsesOutputItemEvent;
export type ResponseContentPartEvent = ResponsesContentPartEvent;
export type ResponseTextDeltaEvent = ResponsesOutputTextDeltaEvent | ResponsesReasoningTextDeltaEvent;
export type ResponseTextDoneEvent = ResponsesOutputTextDoneEvent | ResponsesReasoningTextDoneEvent;
/** `.delta` carries the next piece of the arguments, `.done` the whole arguments and the function's name. */
export type ResponseFunctionCallArgumentsEvent = ResponsesFunctionCallArgumentsDeltaEvent | ResponsesFunctionCallArgumentsDoneEvent;

/**
 * @deprecated The gateway sends no `error` event on a response stream (a failure is `response.failed`);
 * `ResponseStream` throws on either, so no `ResponseStreamEvent` has this shape.
 */
export interface ResponseErrorEvent {
  type: 'error';
  sequence_number: number;
  code: string | null;
  message: string;
  param: string | null;
}

/** The events of a streamed response, discriminated by `type`. */
export type ResponseStreamEvent = ResponsesStreamEvent;
