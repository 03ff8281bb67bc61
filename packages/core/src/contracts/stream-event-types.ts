import type { ResponsesObject, ResponsesOutputItem } from '../transforms/responses-object.js';
import type { StreamFailure } from '../transforms/chat-stream-events.js';

/*
 * The streamed events of both text endpoints as zod-free interfaces, for the SDK's declarations
 * (which must not name zod). contract-types.test.ts holds each equal to stream-event-schemas.ts,
 * which the contract suite checks every streamed event against. No transform owns them whole: a
 * chat chunk is the model server's, passed on with the gateway's id and model.
 */

/** One tool-call fragment of a chunk (id, type and name only on the first). */
export interface ChatCompletionChunkToolCall {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
  [field: string]: unknown;
}

export interface ChatCompletionChunkDelta {
  role?: 'assistant' | null;
  content?: string | null;
  reasoning?: string | null;
  /** null in the chunks of servers that always name the field (SGLang). */
  tool_calls?: ChatCompletionChunkToolCall[] | null;
  [field: string]: unknown;
}

export interface ChatCompletionChunkChoice {
  index: number;
  delta: ChatCompletionChunkDelta;
  finish_reason?: string | null;
  [field: string]: unknown;
}

export interface ChatCompletionChunkUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** At the model's configured price, in its currency (x-infergate-cost's amount); absent without a price. */
  cost?: number;
  [field: string]: unknown;
}

/**
 * One `data:` event of a streamed chat completion: a chunk as the model server sent it, with the
 * gateway's id (the same on every chunk) and model. Fields the server adds pass through.
 */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: ChatCompletionChunkChoice[];
  /** On the final chunk (whose choices are empty) with `stream_options.include_usage`. */
  usage?: ChatCompletionChunkUsage | null;
  [field: string]: unknown;
}

/** The event a chat stream ends with when the model server fails after the 200 (then `[DONE]`). */
export interface ChatStreamError {
  error: StreamFailure;
}

export type ChatCompletionStreamEvent = ChatCompletionChunk | ChatStreamError;

interface ResponsesEventBase {
  /** From 0, without gaps. */
  sequence_number: number;
}

interface ResponsesPartPosition extends ResponsesEventBase {
  item_id: string;
  output_index: number;
  content_index: number;
}

/** The first two events, and exactly one terminal event: completed, incomplete (token limit) or failed. */
export interface ResponsesLifecycleEvent extends ResponsesEventBase {
  type:
    | 'response.created'
    | 'response.in_progress'
    | 'response.completed'
    | 'response.incomplete'
    | 'response.failed';
  response: ResponsesObject;
}

export interface ResponsesOutputItemEvent extends ResponsesEventBase {
  type: 'response.output_item.added' | 'response.output_item.done';
  output_index: number;
  item: ResponsesOutputItem;
}

/** An output_text part as its content_part events carry it: log-probabilities only when asked for. */
export interface ResponsesStreamedTextPart {
  type: 'output_text';
  text: string;
  annotations: never[];
  logprobs: unknown[] | null;
}

export interface ResponsesContentPartEvent extends ResponsesPartPosition {
  type: 'response.content_part.added' | 'response.content_part.done';
  part: ResponsesStreamedTextPart | { type: 'reasoning_text'; text: string };
}

export interface ResponsesOutputTextDeltaEvent extends ResponsesPartPosition {
  type: 'response.output_text.delta';
  delta: string;
  logprobs: unknown[];
}

export interface ResponsesOutputTextDoneEvent extends ResponsesPartPosition {
  type: 'response.output_text.done';
  text: string;
  logprobs: unknown[];
}

export interface ResponsesReasoningTextDeltaEvent extends ResponsesPartPosition {
  type: 'response.reasoning_text.delta';
  delta: string;
}

export interface ResponsesReasoningTextDoneEvent extends ResponsesPartPosition {
  type: 'response.reasoning_text.done';
  text: string;
}

export interface ResponsesFunctionCallArgumentsDeltaEvent extends ResponsesEventBase {
  type: 'response.function_call_arguments.delta';
  item_id: string;
  output_index: number;
  /** The next piece of the arguments. */
  delta: string;
}

export interface ResponsesFunctionCallArgumentsDoneEvent extends ResponsesEventBase {
  type: 'response.function_call_arguments.done';
  item_id: string;
  output_index: number;
  name: string;
  /** The whole arguments, as the model wrote them. */
  arguments: string;
}

/** The events of a streamed response, discriminated by `type`. */
export type ResponsesStreamEvent =
  | ResponsesLifecycleEvent
  | ResponsesOutputItemEvent
  | ResponsesContentPartEvent
  | ResponsesOutputTextDeltaEvent
  | ResponsesOutputTextDoneEvent
  | ResponsesReasoningTextDeltaEvent
  | ResponsesReasoningTextDoneEvent
  | ResponsesFunctionCallArgumentsDeltaEvent
  | ResponsesFunctionCallArgumentsDoneEvent;
