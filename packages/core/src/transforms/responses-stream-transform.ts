import type { IdSource } from '../ports/ports.js';
import type { SseEvent } from '../sse/sse-event.js';
import type { TakeableIterator } from '../sse/takeable-iterator.js';
import { chatLogprobsToResponses } from './chat-logprobs-to-responses.js';
import { readChatStreamEvent, readChunkUsage, recordUsage } from './chat-stream-events.js';
import type { StreamFailure, StreamUsage, TokenCounts } from './chat-stream-events.js';
import { matchPlainContentChunk, plainChunkContent } from './plain-content-chunk.js';
import { newCallId, responsesIdDigits } from './responses-from-chat-completion.js';
import { responsesObject, toStreamedResponsesUsage } from './responses-object.js';
import { SyncEventTransform } from './sync-event-transform.js';
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
  /** The model's price for its usage, added to the final usage as `cost`; absent: the model has none. */
  costOf?: ((inputTokens: number, outputTokens: number) => number) | undefined;
}

type OpenText =
  | { kind: 'message'; item: ResponsesMessageItem; index: number }
  | { kind: 'reasoning'; item: ResponsesReasoningItem; index: number };

function deltaOf(choice: Record<string, unknown>): Record<string, unknown> | undefined {
  const delta = choice.delta;
  return typeof delta === 'object' && delta !== null
    ? (delta as Record<string, unknown>)
    : undefined;
}

function deltaText(
  delta: Record<string, unknown> | undefined,
  field: 'content' | 'reasoning',
): string | undefined {
  if (delta === undefined) return undefined;
  // Older vLLM streams reasoning as reasoning_content.
  const value =
    field === 'reasoning' ? (delta.reasoning ?? delta.reasoning_content) : delta.content;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** One fragment of a streamed tool call (id, type and name only on the first). */
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
    const fn =
      typeof call.function === 'object' && call.function !== null
        ? (call.function as Record<string, unknown>)
        : {};
    fragments.push({
      index: typeof call.index === 'number' ? call.index : position,
      id: typeof call.id === 'string' && call.id.length > 0 ? call.id : undefined,
      name: typeof fn.name === 'string' && fn.name.length > 0 ? fn.name : undefined,
      arguments:
        typeof fn.arguments === 'string'
          ? fn.arguments
          : fn.arguments === undefined
            ? ''
            : JSON.stringify(fn.arguments),
    });
  });
  return fragments;
}

/**
 * Responses streaming events rebuilt from an upstream chat stream, in the order openai-node's
 * accumulator checks: `event:` and `data:` lines, sequence_number from 0 without gaps, response.created
 * first, each output item added then its part, deltas, done events; tool calls as function_call items;
 * exactly one terminal event (completed, incomplete on the token limit, failed); no `[DONE]`, as the
 * API has none.
 */
class ResponsesStreamTransform extends SyncEventTransform<SseEvent, SseEvent> {
  private sequence = 0;
  private readonly id: string;
  private readonly output: ResponsesOutputItem[] = [];
  private open: OpenText | undefined;
  // Tool calls by their index in the upstream's deltas; a call past max_tool_calls is left out.
  private readonly calls = new Map<
    number,
    { item: ResponsesFunctionCallItem; index: number } | undefined
  >();
  private readonly maxCalls: number;
  private callCount = 0;
  private sawOutput = false;
  private finishReason: string | undefined;
  private usage: StreamUsage | undefined;
  // Servers that report no reasoning count in a stream's usage: one reasoning delta is one token.
  private reasoningDeltas = 0;
  // The open message's id as JSON, for the plain text deltas written as text (plainTextDelta).
  private messageIdJson = '';
  private messageIdOf: ResponsesMessageItem | undefined;

  constructor(
    source: TakeableIterator<SseEvent> | AsyncIterator<SseEvent>,
    private readonly options: ResponsesStreamOptions,
  ) {
    super(source);
    this.id = `resp_${options.ids.digits(responsesIdDigits)}`;
    this.maxCalls = options.echo.max_tool_calls ?? Number.POSITIVE_INFINITY;
    this.emit('response.created', { response: this.snapshot('in_progress') });
    this.emit('response.in_progress', { response: this.snapshot('in_progress') });
  }

  protected step(event: SseEvent): boolean {
    // A plain content delta (no usage, reasoning, tool call, logprobs or finish_reason) is read without JSON.parse.
    const plain = matchPlainContentChunk(event.data);
    if (plain !== undefined) {
      const content = plainChunkContent(event.data, plain);
      if (content.length === 0) return false;
      const { open } = this;
      if (open?.kind === 'message') this.plainTextDelta(open, content);
      else this.appendText('message', content, undefined);
      return false;
    }
    const item = readChatStreamEvent(event);
    if (item.kind === 'failure') {
      this.fail(item.failure);
      return true;
    }
    const { options } = this;
    if (item.kind === 'done') {
      const status = this.finishReason === 'length' ? 'incomplete' : 'completed';
      if (!this.sawOutput) this.openText('message');
      this.closeText(status);
      this.closeToolCalls(status);
      const counted = this.finalUsage();
      if (counted !== undefined) recordUsage(options.meta, counted);
      this.emit(status === 'incomplete' ? 'response.incomplete' : 'response.completed', {
        response: this.snapshot(status),
      });
      return true;
    }
    const chunkUsage = readChunkUsage(item.chunk);
    if (chunkUsage !== undefined) {
      this.usage = chunkUsage;
      recordUsage(options.meta, chunkUsage);
    }
    const choices = item.chunk.choices;
    const choice: unknown = Array.isArray(choices) ? choices[0] : undefined;
    if (typeof choice !== 'object' || choice === null) return false;
    const record = choice as Record<string, unknown>;
    const delta = deltaOf(record);
    const reasoning = deltaText(delta, 'reasoning');
    if (reasoning !== undefined) {
      this.reasoningDeltas += 1;
      if (!options.clearThinking) this.appendText('reasoning', reasoning, undefined);
    }
    const content = deltaText(delta, 'content');
    if (content !== undefined)
      this.appendText(
        'message',
        content,
        options.logprobs ? chatLogprobsToResponses(record.logprobs) : undefined,
      );
    for (const fragment of toolCallFragments(delta)) this.appendToolCall(fragment);
    if (typeof record.finish_reason === 'string') this.finishReason = record.finish_reason;
    return false;
  }

  protected fail(failure: StreamFailure): void {
    if (this.open !== undefined) this.open.item.status = 'incomplete';
    for (const call of this.calls.values())
      if (call !== undefined && call.item.status === 'in_progress') call.item.status = 'incomplete';
    this.emit('response.failed', { response: this.snapshot('failed', failure) });
  }

  private emit(type: string, payload: Record<string, unknown>): void {
    this.out.push({
      event: type,
      data: JSON.stringify({ type, sequence_number: this.sequence++, ...payload }),
    });
  }

  private finalUsage(): StreamUsage | undefined {
    const { usage, reasoningDeltas } = this;
    if (
      usage === undefined ||
      reasoningDeltas === 0 ||
      typeof usage.completion_tokens_details?.reasoning_tokens === 'number'
    )
      return usage;
    const details = Object.assign({}, usage.completion_tokens_details, {
      reasoning_tokens: Math.min(reasoningDeltas, usage.completion_tokens),
    });
    return Object.assign({}, usage, { completion_tokens_details: details });
  }

  private snapshot(status: ResponsesStatus, error?: StreamFailure) {
    const counted = this.finalUsage();
    const { options } = this;
    const usage = counted === undefined ? null : toStreamedResponsesUsage(counted);
    if (usage !== null && options.costOf !== undefined)
      usage.cost = options.costOf(counted?.prompt_tokens ?? 0, counted?.completion_tokens ?? 0);
    return responsesObject({
      id: this.id,
      createdAt: options.createdAt,
      model: options.model,
      status,
      output: this.output,
      usage,
      echo: options.echo,
      ...(error === undefined ? {} : { error: { code: error.code, message: error.message } }),
    });
  }

  private openText(kind: OpenText['kind']): void {
    const { output, options } = this;
    const index = output.length;
    this.sawOutput = true;
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
      this.open = { kind, item, index };
      this.emit('response.output_item.added', { output_index: index, item });
      item.content.push({
        type: 'output_text',
        text: '',
        annotations: [],
        logprobs: options.logprobs ? [] : null,
      });
      this.emit('response.content_part.added', {
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
      this.open = { kind, item, index };
      this.emit('response.output_item.added', { output_index: index, item });
      item.content.push({ type: 'reasoning_text', text: '' });
      this.emit('response.content_part.added', {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        part: { type: 'reasoning_text', text: '' },
      });
    }
  }

  private closeText(status: 'completed' | 'incomplete'): void {
    if (this.open === undefined) return;
    const { item, index } = this.open;
    this.open = undefined;
    // Each event's fields written out, never `{ ...ids, more }`: on Node 20's V8 that spread makes a
    // new hidden class per event (see buildChatUpstreamRequest).
    if (item.type === 'message') {
      const part = item.content[0];
      this.emit('response.output_text.done', {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        text: part?.text ?? '',
        logprobs: part?.logprobs ?? [],
      });
      this.emit('response.content_part.done', {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        part,
      });
    } else {
      const part = item.content[0];
      this.emit('response.reasoning_text.done', {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        text: part?.text ?? '',
      });
      this.emit('response.content_part.done', {
        item_id: item.id,
        output_index: index,
        content_index: 0,
        part,
      });
    }
    item.status = status;
    this.emit('response.output_item.done', { output_index: index, item });
  }

  // The event of a plain text delta into the open message (most events of a stream), written as text in
  // the order emit gives its fields: no spread or object to stringify per token.
  private plainTextDelta(message: Extract<OpenText, { kind: 'message' }>, delta: string): void {
    const part = message.item.content[0];
    if (part !== undefined) part.text += delta;
    if (this.messageIdOf !== message.item) {
      this.messageIdOf = message.item;
      this.messageIdJson = JSON.stringify(message.item.id);
    }
    this.out.push({
      event: 'response.output_text.delta',
      data: `{"type":"response.output_text.delta","sequence_number":${this.sequence++},"item_id":${this.messageIdJson},"output_index":${message.index},"content_index":0,"delta":${JSON.stringify(delta)},"logprobs":[]}`,
    });
  }

  private appendText(
    kind: OpenText['kind'],
    delta: string,
    logprobs: ResponsesLogprob[] | undefined,
  ): void {
    if (this.open?.kind !== kind) {
      this.closeText('completed');
      this.openText(kind);
    }
    const { open } = this;
    if (open === undefined) return;
    const { index } = open;
    if (open.kind === 'message') {
      const part = open.item.content[0];
      if (part !== undefined) {
        part.text += delta;
        if (part.logprobs !== null && logprobs !== undefined) part.logprobs.push(...logprobs);
      }
      const eventLogprobs = this.options.logprobs ? (logprobs ?? []) : [];
      this.emit('response.output_text.delta', {
        item_id: open.item.id,
        output_index: index,
        content_index: 0,
        delta,
        logprobs: eventLogprobs,
      });
    } else {
      const part = open.item.content[0];
      if (part !== undefined) part.text += delta;
      this.emit('response.reasoning_text.delta', {
        item_id: open.item.id,
        output_index: index,
        content_index: 0,
        delta,
      });
    }
  }

  private appendToolCall(fragment: ToolCallFragment): void {
    const { calls } = this;
    let call = calls.get(fragment.index);
    if (!calls.has(fragment.index)) {
      call = undefined;
      if (this.callCount < this.maxCalls) {
        this.callCount += 1;
        this.closeText('completed');
        this.sawOutput = true;
        const item: ResponsesFunctionCallItem = {
          id: `fc_${this.options.ids.digits(responsesIdDigits)}`,
          type: 'function_call',
          status: 'in_progress',
          arguments: '',
          call_id: fragment.id ?? newCallId(this.options.ids),
          name: fragment.name ?? '',
        };
        call = { item, index: this.output.length };
        this.output.push(item);
        this.emit('response.output_item.added', { output_index: call.index, item });
      }
      calls.set(fragment.index, call);
    }
    if (call === undefined) return;
    if (fragment.name !== undefined && call.item.name === '') call.item.name = fragment.name;
    if (fragment.arguments.length === 0) return;
    call.item.arguments += fragment.arguments;
    this.emit('response.function_call_arguments.delta', {
      item_id: call.item.id,
      output_index: call.index,
      delta: fragment.arguments,
    });
  }

  private closeToolCalls(status: 'completed' | 'incomplete'): void {
    for (const call of this.calls.values()) {
      if (call === undefined || call.item.status !== 'in_progress') continue;
      const { item, index } = call;
      this.emit('response.function_call_arguments.done', {
        item_id: item.id,
        output_index: index,
        name: item.name,
        arguments: item.arguments,
      });
      item.status = status;
      this.emit('response.output_item.done', { output_index: index, item });
    }
  }
}

/** The client's responses event stream (see ResponsesStreamTransform), taking events as soon as `events` can hand them out. */
export function chatStreamToResponsesEvents(
  events: AsyncIterable<SseEvent>,
  options: ResponsesStreamOptions,
): SyncEventTransform<SseEvent, SseEvent> {
  return new ResponsesStreamTransform(events[Symbol.asyncIterator](), options);
}
