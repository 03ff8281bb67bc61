import type { IdSource } from '../handlers/ports.js';
import type { SseEvent } from '../sse/sse-event.js';
import { readChatStreamEvent, readChunkUsage, recordUsage, streamEndedEarly, streamFailureFrom } from './chat-stream-events.js';
import type { StreamFailure, StreamUsage, TokenCounts } from './chat-stream-events.js';
import { matchPlainContentChunk, plainChunkContent } from './plain-content-chunk.js';
import { responsesIdDigits } from './responses-from-chat-completion.js';
import { responsesObject, toResponsesUsage } from './responses-object.js';
import type { ResponsesEcho, ResponsesMessageItem, ResponsesOutputItem, ResponsesReasoningItem, ResponsesStatus } from './responses-object.js';

export interface ResponsesStreamOptions {
  model: string;
  clearThinking: boolean;
  ids: IdSource;
  /** Unix seconds. */
  createdAt: number;
  echo: ResponsesEcho;
  meta: TokenCounts;
}

type OpenItem = { kind: 'message'; item: ResponsesMessageItem; index: number } | { kind: 'reasoning'; item: ResponsesReasoningItem; index: number };

function deltaText(choice: Record<string, unknown>, field: 'content' | 'reasoning'): string | undefined {
  const delta = choice.delta;
  if (typeof delta !== 'object' || delta === null) return undefined;
  const record = delta as Record<string, unknown>;
  // protocols 1.1: older vLLM streams reasoning as reasoning_content.
  const value = field === 'reasoning' ? (record.reasoning ?? record.reasoning_content) : record.content;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * Responses streaming events rebuilt from an upstream chat stream (protocols 2.3 and 7.3, the order
 * openai-node's accumulator checks): `event:` + `data:` lines, sequence_number from 0,
 * response.created first, each output item added then its part, deltas, and done events in order,
 * and exactly one terminal event: response.completed, response.incomplete (the token limit hit) or
 * response.failed (the upstream failed or ended without `[DONE]`). No `[DONE]`, as the API has none.
 */
export async function* chatStreamToResponsesEvents(events: AsyncIterable<SseEvent>, options: ResponsesStreamOptions): AsyncGenerator<SseEvent, void, undefined> {
  let sequence = 0;
  const id = `resp_${options.ids.digits(responsesIdDigits)}`;
  const output: ResponsesOutputItem[] = [];
  let open: OpenItem | undefined;
  let sawMessage = false;
  let finishReason: string | undefined;
  let usage: StreamUsage | undefined;

  const emit = (type: string, payload: Record<string, unknown>): SseEvent => ({ event: type, data: JSON.stringify({ type, sequence_number: sequence++, ...payload }) });
  const snapshot = (status: ResponsesStatus, error?: StreamFailure) =>
    responsesObject({
      id,
      createdAt: options.createdAt,
      model: options.model,
      status,
      output,
      usage: usage === undefined ? null : toResponsesUsage(usage),
      echo: options.echo,
      ...(error === undefined ? {} : { error: { code: error.code, message: error.message } }),
    });

  function* openItem(kind: OpenItem['kind']): Generator<SseEvent> {
    const index = output.length;
    if (kind === 'message') {
      const item: ResponsesMessageItem = { id: `msg_${options.ids.digits(responsesIdDigits)}`, type: 'message', role: 'assistant', status: 'in_progress', phase: null, content: [] };
      output.push(item);
      open = { kind, item, index };
      sawMessage = true;
      yield emit('response.output_item.added', { output_index: index, item });
      item.content.push({ type: 'output_text', text: '', annotations: [], logprobs: null });
      yield emit('response.content_part.added', { item_id: item.id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } });
    } else {
      const item: ResponsesReasoningItem = { id: `rs_${options.ids.digits(responsesIdDigits)}`, type: 'reasoning', summary: [], content: [], encrypted_content: null, status: 'in_progress' };
      output.push(item);
      open = { kind, item, index };
      yield emit('response.output_item.added', { output_index: index, item });
      item.content.push({ type: 'reasoning_text', text: '' });
      yield emit('response.content_part.added', { item_id: item.id, output_index: index, content_index: 0, part: { type: 'reasoning_text', text: '' } });
    }
  }

  function* closeItem(status: 'completed' | 'incomplete'): Generator<SseEvent> {
    if (open === undefined) return;
    const { item, index } = open;
    open = undefined;
    const part = item.content[0];
    const text = part?.text ?? '';
    const ids = { item_id: item.id, output_index: index, content_index: 0 };
    if (item.type === 'message') yield emit('response.output_text.done', { ...ids, text, logprobs: [] });
    else yield emit('response.reasoning_text.done', { ...ids, text });
    yield emit('response.content_part.done', { ...ids, part });
    item.status = status;
    yield emit('response.output_item.done', { output_index: index, item });
  }

  function* append(kind: OpenItem['kind'], delta: string): Generator<SseEvent> {
    if (open?.kind !== kind) {
      yield* closeItem('completed');
      yield* openItem(kind);
    }
    if (open === undefined) return;
    const part = open.item.content[0];
    if (part !== undefined) part.text += delta;
    const ids = { item_id: open.item.id, output_index: open.index, content_index: 0 };
    yield kind === 'message' ? emit('response.output_text.delta', { ...ids, delta, logprobs: [] }) : emit('response.reasoning_text.delta', { ...ids, delta });
  }

  yield emit('response.created', { response: snapshot('in_progress') });
  yield emit('response.in_progress', { response: snapshot('in_progress') });

  let failure: StreamFailure = streamEndedEarly;
  try {
    for await (const event of events) {
      // A plain content delta (no usage, reasoning or finish_reason) is read without JSON.parse.
      const plain = matchPlainContentChunk(event.data);
      if (plain !== undefined) {
        const content = plainChunkContent(event.data, plain);
        if (content.length > 0) yield* append('message', content);
        continue;
      }
      const item = readChatStreamEvent(event);
      if (item.kind === 'failure') {
        failure = item.failure;
        break;
      }
      if (item.kind === 'done') {
        const status = finishReason === 'length' ? 'incomplete' : 'completed';
        if (!sawMessage) yield* openItem('message');
        yield* closeItem(status);
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
      const reasoning = options.clearThinking ? undefined : deltaText(record, 'reasoning');
      if (reasoning !== undefined) yield* append('reasoning', reasoning);
      const content = deltaText(record, 'content');
      if (content !== undefined) yield* append('message', content);
      if (typeof record.finish_reason === 'string') finishReason = record.finish_reason;
    }
  } catch (error) {
    failure = streamFailureFrom(error);
  }
  if (open !== undefined) open.item.status = 'incomplete';
  yield emit('response.failed', { response: snapshot('failed', failure) });
}
