import type { IdSource } from '../ports/ports.js';
import { chatLogprobsToResponses } from './chat-logprobs-to-responses.js';
import { readChatToolCalls } from './chat-tool-calls.js';
import type { UpstreamChatCompletion } from '../schemas/upstream-chat-completion-schema.js';
import {
  messageItem,
  reasoningItem,
  responsesObject,
  toResponsesUsage,
} from './responses-object.js';
import type { ResponsesEcho, ResponsesObject, ResponsesOutputItem } from './responses-object.js';

/** Digits in the spec's `resp_<digits>` and `msg_<digits>` ids. */
export const responsesIdDigits = 24;

export interface ResponsesShapeOptions {
  model: string;
  clearThinking: boolean;
  ids: IdSource;
  /** Unix seconds. */
  createdAt: number;
  echo: ResponsesEcho;
  /** The request asked for output log-probabilities: output_text parts carry them ([] when the upstream sent none). */
  logprobs: boolean;
}

/** `call_<hex>` for a tool call the upstream sent without an id (the client answers by this id). */
export function newCallId(ids: IdSource): string {
  return `call_${ids.hex(24)}`;
}

/**
 * The text form from a chat completion, in vLLM's order: reasoning (when the model
 * exposes it) as a reasoning item, the message (left out when the model only called tools), then one
 * function_call item per tool call, at most `max_tool_calls`. A length stop makes the response
 * `incomplete` with reason max_output_tokens, as the completion API reports a token-limit stop.
 */
export function chatCompletionToResponse(
  completion: UpstreamChatCompletion,
  options: ResponsesShapeOptions,
): ResponsesObject {
  const choice = completion.choices[0];
  const incomplete = choice?.finish_reason === 'length';
  const status = incomplete ? 'incomplete' : 'completed';
  const output: ResponsesOutputItem[] = [];
  const reasoning = options.clearThinking
    ? undefined
    : (choice?.message.reasoning ?? choice?.message.reasoning_content ?? undefined);
  if (reasoning !== undefined && reasoning.length > 0)
    output.push(
      reasoningItem(`rs_${options.ids.digits(responsesIdDigits)}`, reasoning, 'completed'),
    );
  const calls = readChatToolCalls(choice?.message.tool_calls, () => newCallId(options.ids)).slice(
    0,
    options.echo.max_tool_calls ?? undefined,
  );
  const content = choice?.message.content ?? '';
  if (content.length > 0 || calls.length === 0) {
    const logprobs = options.logprobs ? (chatLogprobsToResponses(choice?.logprobs) ?? []) : null;
    output.push(
      messageItem(`msg_${options.ids.digits(responsesIdDigits)}`, content, status, logprobs),
    );
  }
  for (const call of calls) {
    output.push({
      id: `fc_${options.ids.digits(responsesIdDigits)}`,
      type: 'function_call',
      status,
      arguments: call.arguments,
      call_id: call.id,
      name: call.name,
    });
  }
  return responsesObject({
    id: `resp_${options.ids.digits(responsesIdDigits)}`,
    createdAt: options.createdAt,
    model: options.model,
    status: incomplete ? 'incomplete' : 'completed',
    output,
    usage: toResponsesUsage(completion.usage ?? { prompt_tokens: 0, completion_tokens: 0 }),
    echo: options.echo,
  });
}

/** The spec's "form for image input" of the response object. */
export interface ImageFormResponse {
  id: string;
  object: 'responses';
  created: number;
  model: string;
  output: Array<{
    type: 'message';
    id: string;
    role: 'assistant';
    content: { type: 'output_text'; text: string; annotations: never[] };
    finish_reason: string;
  }>;
  usage: {
    input_tokens: number;
    input_tokens_details: { cached_tokens: number };
    output_tokens: number;
    output_tokens_details: { reasoning_tokens: number };
    total_tokens: number;
  };
}

/**
 * The form for image input: `resp-<hex>`, object `responses`, `created`, content a single object and
 * the choice's finish_reason. It has no reasoning item: the form holds exactly one message.
 */
export function chatCompletionToImageFormResponse(
  completion: UpstreamChatCompletion,
  options: ResponsesShapeOptions,
): ImageFormResponse {
  const choice = completion.choices[0];
  const usage = toResponsesUsage(completion.usage ?? { prompt_tokens: 0, completion_tokens: 0 });
  return {
    id: `resp-${options.ids.hex(32)}`,
    object: 'responses',
    created: options.createdAt,
    model: options.model,
    output: [
      {
        type: 'message',
        id: `msg-${options.ids.hex(32)}`,
        role: 'assistant',
        content: { type: 'output_text', text: choice?.message.content ?? '', annotations: [] },
        finish_reason: choice?.finish_reason ?? 'stop',
      },
    ],
    usage: {
      input_tokens: usage.input_tokens,
      input_tokens_details: { cached_tokens: usage.input_tokens_details.cached_tokens },
      output_tokens: usage.output_tokens,
      output_tokens_details: { reasoning_tokens: usage.output_tokens_details.reasoning_tokens },
      total_tokens: usage.total_tokens,
    },
  };
}
