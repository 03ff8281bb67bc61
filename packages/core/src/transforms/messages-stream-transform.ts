import type { IdSource } from '../ports/ports.js';
import type { SseEvent } from '../sse/sse-event.js';
import type { TakeableIterator } from '../sse/takeable-iterator.js';
import { readChatStreamEvent, readChunkUsage, recordUsage } from './chat-stream-events.js';
import type { StreamFailure, StreamUsage, TokenCounts } from './chat-stream-events.js';
import { newMessageId, newToolUseId, toMessagesUsage, toStopReason } from './messages-object.js';
import { matchPlainContentChunk, plainChunkContent } from './plain-content-chunk.js';
import { SyncEventTransform } from './sync-event-transform.js';

export interface MessagesStreamOptions {
  model: string;
  clearThinking: boolean;
  ids: IdSource;
  stopSequences: readonly string[] | undefined;
  meta: TokenCounts;
}

type OpenBlock = 'text' | 'thinking' | 'tool_use';

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}

function deltaText(delta: Record<string, unknown> | undefined, field: 'content' | 'reasoning') {
  if (delta === undefined) return undefined;
  // Older vLLM streams reasoning as reasoning_content.
  const value =
    field === 'reasoning' ? (delta.reasoning ?? delta.reasoning_content) : delta.content;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * The Messages event stream rebuilt from an upstream chat stream, in the order the Anthropic SDK's
 * accumulator checks: message_start, a ping, then per content block content_block_start, its deltas
 * (text_delta, thinking_delta, input_json_delta) and content_block_stop; message_delta with the stop
 * reason and usage; message_stop. A failure after the first byte is one `error` event, as the API
 * sends it; nothing follows it.
 */
class MessagesStreamTransform extends SyncEventTransform<SseEvent, SseEvent> {
  private blockIndex = -1;
  private open: OpenBlock | undefined;
  // The block index of each upstream tool call index.
  private readonly calls = new Map<number, number>();
  private finishReason: string | undefined;
  private matchedStop: unknown;
  private usage: StreamUsage | undefined;

  constructor(
    source: TakeableIterator<SseEvent> | AsyncIterator<SseEvent>,
    private readonly options: MessagesStreamOptions,
  ) {
    super(source);
    this.emit('message_start', {
      message: {
        id: newMessageId(options.ids),
        type: 'message',
        role: 'assistant',
        model: options.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // The prompt's count arrives with the upstream's last chunk: message_delta carries it.
        usage: toMessagesUsage(undefined),
      },
    });
    this.emit('ping', {});
  }

  protected step(event: SseEvent): boolean {
    // A plain content delta (no usage, reasoning, tool call or finish_reason) is read without JSON.parse.
    const plain = matchPlainContentChunk(event.data);
    if (plain !== undefined) {
      const content = plainChunkContent(event.data, plain);
      if (content.length > 0) this.appendText('text', content);
      return false;
    }
    const item = readChatStreamEvent(event);
    if (item.kind === 'failure') {
      this.fail(item.failure);
      return true;
    }
    if (item.kind === 'done') {
      this.finish();
      return true;
    }
    const chunkUsage = readChunkUsage(item.chunk);
    if (chunkUsage !== undefined) {
      this.usage = chunkUsage;
      recordUsage(this.options.meta, chunkUsage);
    }
    const choices = item.chunk.choices;
    const choice = recordOf(Array.isArray(choices) ? choices[0] : undefined);
    if (choice === undefined) return false;
    const delta = recordOf(choice.delta);
    const reasoning = deltaText(delta, 'reasoning');
    if (reasoning !== undefined && !this.options.clearThinking)
      this.appendText('thinking', reasoning);
    const content = deltaText(delta, 'content');
    if (content !== undefined) this.appendText('text', content);
    const calls = delta?.tool_calls;
    if (Array.isArray(calls))
      calls.forEach((call: unknown, position) => this.appendToolCall(recordOf(call), position));
    if (typeof choice.finish_reason === 'string') this.finishReason = choice.finish_reason;
    if (choice.stop_reason !== undefined && choice.stop_reason !== null)
      this.matchedStop = choice.stop_reason;
    return false;
  }

  protected fail(failure: StreamFailure): void {
    this.emit('error', { error: { type: 'api_error', message: failure.message } });
  }

  private emit(type: string, payload: Record<string, unknown>): void {
    this.out.push({ event: type, data: JSON.stringify({ type, ...payload }) });
  }

  private finish(): void {
    // A stream with no output still holds one (empty) text block, as the JSON answer does.
    if (this.blockIndex === -1) this.startBlock('text', { type: 'text', text: '' });
    this.closeBlock();
    const { stop_reason, stop_sequence } = toStopReason(
      this.finishReason,
      this.matchedStop,
      this.options.stopSequences,
      this.calls.size > 0,
    );
    this.emit('message_delta', {
      delta: { stop_reason, stop_sequence },
      usage: toMessagesUsage(this.usage),
    });
    this.emit('message_stop', {});
  }

  private startBlock(kind: OpenBlock, block: Record<string, unknown>): void {
    this.closeBlock();
    this.blockIndex += 1;
    this.open = kind;
    this.emit('content_block_start', { index: this.blockIndex, content_block: block });
  }

  private closeBlock(): void {
    if (this.open === undefined) return;
    this.open = undefined;
    this.emit('content_block_stop', { index: this.blockIndex });
  }

  private appendText(kind: 'text' | 'thinking', text: string): void {
    if (this.open !== kind)
      this.startBlock(
        kind,
        kind === 'text'
          ? { type: 'text', text: '' }
          : { type: 'thinking', thinking: '', signature: '' },
      );
    this.emit('content_block_delta', {
      index: this.blockIndex,
      delta:
        kind === 'text' ? { type: 'text_delta', text } : { type: 'thinking_delta', thinking: text },
    });
  }

  /** One fragment of a streamed tool call: id and name on the first, argument text on any. */
  private appendToolCall(call: Record<string, unknown> | undefined, position: number): void {
    if (call === undefined) return;
    const callIndex = typeof call.index === 'number' ? call.index : position;
    const fn = recordOf(call.function) ?? {};
    if (!this.calls.has(callIndex)) {
      const id =
        typeof call.id === 'string' && call.id.length > 0
          ? call.id
          : newToolUseId(this.options.ids);
      const name = typeof fn.name === 'string' ? fn.name : '';
      this.startBlock('tool_use', { type: 'tool_use', id, name, input: {} });
      this.calls.set(callIndex, this.blockIndex);
    }
    // Deltas of a call whose block is no longer open (calls interleaved upstream) cannot be placed.
    if (this.calls.get(callIndex) !== this.blockIndex) return;
    const partial =
      typeof fn.arguments === 'string'
        ? fn.arguments
        : fn.arguments === undefined
          ? ''
          : JSON.stringify(fn.arguments);
    if (partial.length > 0)
      this.emit('content_block_delta', {
        index: this.blockIndex,
        delta: { type: 'input_json_delta', partial_json: partial },
      });
  }
}

/** The client's Messages event stream (see MessagesStreamTransform). */
export function chatStreamToMessagesEvents(
  events: AsyncIterable<SseEvent>,
  options: MessagesStreamOptions,
): SyncEventTransform<SseEvent, SseEvent> {
  return new MessagesStreamTransform(events[Symbol.asyncIterator](), options);
}
