import type { IdSource } from '../handlers/ports.js';
import type { SseEvent } from '../sse/sse-event.js';
import { chatLogprobsToResponses } from './chat-logprobs-to-responses.js';
import { readChatStreamEvent, readChunkUsage, recordUsage, streamEndedEarly, streamFailureFrom } from './chat-stream-events.js';
import type { StreamFailure, StreamUsage, TokenCounts } from './chat-stream-events.js';
import { matchPlainContentChunk, plainChunkContent } from './plain-content-chunk.js';
import { newCallId, responsesIdDigits } from './responses-from-chat-completion.js';
import { responsesObject, toStreamedResponsesUsage } from './responses-object.js';
import type {
  ResponsesEcho,
  ResponsesFunctionCallItem,
  ResponsesLogprob,
  ResponsesMessageItem,
  ResponsesOutputItem,
  ResponsesReasoningItem,
  ResponsesStatus,
} from './responses-object.js';

export interface ResponsesStreamOptions {
  model: string;
  clearThinking: boolean;
  ids: IdSource;
  /** Unix seconds. */
  createdAt: number;
  echo: ResponsesEcho;
  /** The request asked for output log-probabilities. */
  logprobs: boolean;
  meta: TokenCounts;
}

type OpenText = { kind: 'message'; item: ResponsesMessageItem; index: number } | { kind: 'reasoning'; item: ResponsesReasoningItem; index: number };

function deltaOf(choice: Record<string, unknown>): Record<string, unknown> | undefined {
  const delta = choice.delta;
  return typeof delta === 'object' && delta !== null ? (delta as Record<string, unknown>) : undefined;
}

function deltaText(delta: Record<string, unknown> | undefined, field: 'content' | 'reasoning'): string | undefined {
  if (delta === undefined) return undefined;
  // protocols 1.1: older vLLM streams reasoning as reasoning_content.
  const value = field === 'reasoning' ? (delta.reasoning ?? delta.reasoning_content) : delta.content;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** One fragment of a streamed tool call (protocols 1.2: id, type and name only on the first). */
interface ToolCallFragment {
  index: number;
  id: string | undefined;
  name: string | undefined;
  arguments: string;
}

function toolCallFragments(delta: Record<string, unknown> | undefined): ToolCallFragment[] {
  const calls = delta?.tool_calls;
  if (!Array.isArray(calls)) return [];
  const fragments: ToolCallFragment[] = [];
  calls.forEach((value: unknown, position) => {
    if (typeof value !== 'object' || value === null) return;
    const call = value as Record<string, unknown>;
    const fn = typeof call.function === 'object' && call.function !== null ? (call.function as Record<string, unknown>) : {};
    fragments.push({
      index: typeof call.index === 'number' ? call.index : position,
      id: typeof call.id === 'string' && call.id.length > 0 ? call.id : undefined,
      name: typeof fn.name === 'string' && fn.name.length > 0 ? fn.name : undefined,
      arguments: typeof fn.arguments === 'string' ? fn.arguments : fn.arguments === undefined ? '' : JSON.stringify(fn.arguments),
    });
  });
  return fragments;
}

/**
 * Responses streaming events rebuilt from an upstream chat stream (protocols 2.3 and 7.3, the order
 * openai-node's accumulator checks): `event:` + `data:` lines, sequence_number from 0 without gaps,
 * response.created first, each output item added then its part, deltas, and done events in order;
 * tool calls as function_call items with function_call_arguments deltas; exactly one terminal event:
 * response.completed, response.incomplete (the token limit hit) or response.failed (the upstream
 * failed or ended without `[DONE]`). No `[DONE]`, as the API has none.
 */
export async function* chatStreamToResponsesEvents(
  events: AsyncIterable<SseEvent>,
  options: ResponsesStreamOptions,
): AsyncGenerator<SseEvent, void, undefined> {
  let sequence = 0;
  const id = `resp_${options.ids.digits(responsesIdDigits)}`;
  const output: ResponsesOutputItem[] = [];
  let open: OpenText | undefined;
  // Tool calls by their index in the upstream's deltas; a call past max_tool_calls is left out.
  const calls = new Map<number, { item: ResponsesFunctionCallItem; index: number } | undefined>();
  const maxCalls = options.echo.max_tool_calls ?? Number.POSITIVE_INFINITY;
  let callCount = 0;
  let sawOutput = false;
  let finishReason: string | undefined;
  let usage: StreamUsage | undefined;
  // Servers that report no reasoning count in a stream's usage: one reasoning delta is one token.
  let reasoningDeltas = 0;
  const emit = (type: string, payload: Record<string, unknown>): SseEvent => ({
    event: type,
    data: JSON.stringify({ type, sequence_number: sequence++, ...payload }),
  });
  const finalUsage = (): StreamUsage | undefined => {
    if (usage === undefined || reasoningDeltas === 0 || typeof usage.completion_tokens_details?.reasoning_tokens === 'number') return usage;
    return {
      ...usage,
      completion_tokens_details: { ...usage.completion_tokens_details, reasoning_tokens: Math.min(reasoningDeltas, usage.completion_tokens) },
    };
  };
  const snapshot = (status: ResponsesStatus, error?: StreamFailure) => {
    const counted = finalUsage();
    return responsesObject({
      id,
      createdAt: options.createdAt,
      model: options.model,
      status,
      output,
      usage: counted === undefined ? null : toStreamedResponsesUsage(counted),
      echo: options.echo,
      ...(error === undefined ? {} : { error: { code: error.code, message: error.message } }),
    });
  };

  function* openText(kind: OpenText['kind']): Generator<SseEvent> {
    const index = output.length;
    sawOutput = true;
    if (kind === 'message') {
      const item: ResponsesMessageItem = {
        id: `msg_${options.ids.digits(responsesIdDigits)}`,
        type: 'message',
        role: 'assistant',
        status: 'in_progress',
        phase: null,
        content: [],
      };
      output.push(item);
      open = { kind, item, index };
      yield emit('response.output_item.added', { output_index: index, item });
      item.content.push({ type: 'output_text', text: '', annotations: [], logprobs: options.logprobs ? [] : null });
      yield emit('response.content_part.added', {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
      });
    } else {
      const item: ResponsesReasoningItem = {
        id: `rs_${options.ids.digits(responsesIdDigits)}`,
        type: 'reasoning',
        summary: [],
        content: [],
        encrypted_content: null,
        status: 'in_progress',
      };
      output.push(item);
      open = { kind, item, index };
      yield emit('response.output_item.added', { output_index: index, item });
      item.content.push({ type: 'reasoning_text', text: '' });
      yield emit('response.content_part.added', { item_id: item.id, output_index: index, content_index: 0, part: { type: 'reasoning_text', text: '' } });
    }
  }

  function* closeText(status: 'completed' | 'incomplete'): Generator<SseEvent> {
    if (open === undefined) return;
    const { item, index } = open;
    open = undefined;
    const ids = { item_id: item.id, output_index: index, content_index: 0 };
    if (item.type === 'message') {
      const part = item.content[0];
      yield emit('response.output_text.done', { ...ids, text: part?.text ?? '', logprobs: part?.logprobs ?? [] });
      yield emit('response.content_part.done', { ...ids, part });
    } else {
      const part = item.content[0];
      yield emit('response.reasoning_text.done', { ...ids, text: part?.text ?? '' });
      yield emit('response.content_part.done', { ...ids, part });
    }
    item.status = status;
    yield emit('response.output_item.done', { output_index: index, item });
  }

  // The event of a plain text delta into the open message (most events of a stream), written as text in
  // the order emit gives its fields: no generator, spread or object to stringify per token.
  let messageIdJson = '';
  let messageIdOf: ResponsesMessageItem | undefined;
  const plainTextDelta = (message: Extract<OpenText, { kind: 'message' }>, delta: string): SseEvent => {
    const part = message.item.content[0];
    if (part !== undefined) part.text += delta;
    if (messageIdOf !== message.item) {
      messageIdOf = message.item;
      messageIdJson = JSON.stringify(message.item.id);
    }
    return {
      event: 'response.output_text.delta',
      data: `{"type":"response.output_text.delta","sequence_number":${sequence++},"item_id":${messageIdJson},"output_index":${message.index},"content_index":0,"delta":${JSON.stringify(delta)},"logprobs":[]}`,
    };
  };

  function* appendText(kind: OpenText['kind'], delta: string, logprobs: ResponsesLogprob[] | undefined): Generator<SseEvent> {
    if (open?.kind !== kind) {
      yield* closeText('completed');
      yield* openText(kind);
    }
    if (open === undefined) return;
    const ids = { item_id: open.item.id, output_index: open.index, content_index: 0 };
    if (open.kind === 'message') {
      const part = open.item.content[0];
      if (part !== undefined) {
        part.text += delta;
        if (part.logprobs !== null && logprobs !== undefined) part.logprobs.push(...logprobs);
      }
      yield emit('response.output_text.delta', { ...ids, delta, logprobs: options.logprobs ? (logprobs ?? []) : [] });
    } else {
      const part = open.item.content[0];
      if (part !== undefined) part.text += delta;
      yield emit('response.reasoning_text.delta', { ...ids, delta });
    }
  }

  function* appendToolCall(fragment: ToolCallFragment): Generator<SseEvent> {
    let call = calls.get(fragment.index);
    if (!calls.has(fragment.index)) {
      call = undefined;
      if (callCount < maxCalls) {
        callCount += 1;
        yield* closeText('completed');
        sawOutput = true;
        const item: ResponsesFunctionCallItem = {
          id: `fc_${options.ids.digits(responsesIdDigits)}`,
          type: 'function_call',
          status: 'in_progress',
          arguments: '',
          call_id: fragment.id ?? newCallId(options.ids),
          name: fragment.name ?? '',
        };
        call = { item, index: output.length };
        output.push(item);
        yield emit('response.output_item.added', { output_index: call.index, item });
      }
      calls.set(fragment.index, call);
    }
    if (call === undefined) return;
    if (fragment.name !== undefined && call.item.name === '') call.item.name = fragment.name;
    if (fragment.arguments.length === 0) return;
    call.item.arguments += fragment.arguments;
    yield emit('response.function_call_arguments.delta', { item_id: call.item.id, output_index: call.index, delta: fragment.arguments });
  }

  function* closeToolCalls(status: 'completed' | 'incomplete'): Generator<SseEvent> {
    for (const call of calls.values()) {
      if (call === undefined || call.item.status !== 'in_progress') continue;
      const { item, index } = call;
      yield emit('response.function_call_arguments.done', { item_id: item.id, output_index: index, name: item.name, arguments: item.arguments });
      item.status = status;
      yield emit('response.output_item.done', { output_index: index, item });
    }
  }

  yield emit('response.created', { response: snapshot('in_progress') });
  yield emit('response.in_progress', { response: snapshot('in_progress') });
  let failure: StreamFailure = streamEndedEarly;
  try {
    for await (const event of events) {
      // A plain content delta (no usage, reasoning, tool call, logprobs or finish_reason) is read without JSON.parse.
      const plain = matchPlainContentChunk(event.data);
      if (plain !== undefined) {
        const content = plainChunkContent(event.data, plain);
        if (content.length === 0) continue;
        if (open?.kind === 'message') yield plainTextDelta(open, content);
        else yield* appendText('message', content, undefined);
        continue;
      }
      const item = readChatStreamEvent(event);
      if (item.kind === 'failure') {
        failure = item.failure;
        break;
      }
      if (item.kind === 'done') {
        const status = finishReason === 'length' ? 'incomplete' : 'completed';
        if (!sawOutput) yield* openText('message');
        yield* closeText(status);
        yield* closeToolCalls(status);
        const counted = finalUsage();
        if (counted !== undefined) recordUsage(options.meta, counted);
        yield emit(status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: snapshot(status) });
        return;
      }
      const chunkUsage = readChunkUsage(item.chunk);
      if (chunkUsage !== undefined) {
        usage = chunkUsage;
        recordUsage(options.meta, chunkUsage);
      }
      const choices = item.chunk.choices;
      const choice: unknown = Array.isArray(choices) ? choices[0] : undefined;
      if (typeof choice !== 'object' || choice === null) continue;
      const record = choice as Record<string, unknown>;
      const delta = deltaOf(record);
      const reasoning = deltaText(delta, 'reasoning');
      if (reasoning !== undefined) {
        reasoningDeltas += 1;
        if (!options.clearThinking) yield* appendText('reasoning', reasoning, undefined);
      }
      const content = deltaText(delta, 'content');
      if (content !== undefined) yield* appendText('message', content, options.logprobs ? chatLogprobsToResponses(record.logprobs) : undefined);
      for (const fragment of toolCallFragments(delta)) yield* appendToolCall(fragment);
      if (typeof record.finish_reason === 'string') finishReason = record.finish_reason;
    }
  } catch (error) {
    failure = streamFailureFrom(error);
  }
  if (open !== undefined) open.item.status = 'incomplete';
  for (const call of calls.values()) if (call !== undefined && call.item.status === 'in_progress') call.item.status = 'incomplete';
  yield emit('response.failed', { response: snapshot('failed', failure) });
}
