import type {
  ImageFormResponse,
  ResponsesContentPartEvent,
  ResponsesFunctionCallArgumentsDeltaEvent,
  ResponsesFunctionCallArgumentsDoneEvent,
  ResponsesFunctionCallItem,
  ResponsesFunctionToolParam,
  ResponsesInputImage,
  ResponsesInputItemParam,
  ResponsesInputMessage,
  ResponsesInputText,
  ResponsesLifecycleEvent,
  ResponsesMessageItem,
  ResponsesObject,
  ResponsesOutputItem,
  ResponsesOutputItemEvent,
  ResponsesOutputText,
  ResponsesOutputTextDeltaEvent,
  ResponsesOutputTextDoneEvent,
  ResponsesParams,
  ResponsesReasoningItem,
  ResponsesReasoningTextDeltaEvent,
  ResponsesReasoningTextDoneEvent,
  ResponsesStatus,
  ResponsesStreamEvent,
  ResponsesTextFormatEcho,
  ResponsesToolChoiceEcho,
  ResponsesUsage,
} from '@infergate/core';
import type { TextModelId } from './model-id.js';

// The request shapes are core's (held to its request schema); the SDK narrows `model` to the catalogue's ids.
export type ResponseInputText = ResponsesInputText;
/** `image_url` is a base64 data URL; the gateway never fetches a URL. */
export type ResponseInputImage = ResponsesInputImage;
export type ResponseInputContent = ResponseInputText | ResponseInputImage;
export type ResponseInputMessage = ResponsesInputMessage;
/**
 * What an agent sends back as history, the gateway storing nothing: earlier messages, the model's
 * function calls, their results, and reasoning items (accepted, not sent to the model).
 */
export type ResponseInputItem = ResponsesInputItemParam;
/** A function tool, in the responses form (flat, not nested under `function`). */
export type ResponseFunctionTool = ResponsesFunctionToolParam;
export type ResponseToolChoice = ResponsesToolChoiceEcho;
export type ResponseTextFormat = ResponsesTextFormatEcho;

export interface ResponseCreateParamsBase extends Omit<ResponsesParams, 'model'> {
  model: TextModelId;
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
export type ResponseTextDeltaEvent =
  ResponsesOutputTextDeltaEvent | ResponsesReasoningTextDeltaEvent;
export type ResponseTextDoneEvent = ResponsesOutputTextDoneEvent | ResponsesReasoningTextDoneEvent;
/** `.delta` carries the next piece of the arguments, `.done` the whole arguments and the function's name. */
export type ResponseFunctionCallArgumentsEvent =
  ResponsesFunctionCallArgumentsDeltaEvent | ResponsesFunctionCallArgumentsDoneEvent;

/** The events of a streamed response, discriminated by `type`. */
export type ResponseStreamEvent = ResponsesStreamEvent;
