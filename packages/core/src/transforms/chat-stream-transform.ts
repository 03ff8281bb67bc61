import type { SseEvent } from '../sse/sse-event.js';
import type { TakeableIterator } from '../sse/takeable-iterator.js';
import {
  doneEvent,
  readChatStreamEvent,
  readChunkUsage,
  recordUsage,
} from './chat-stream-events.js';
import type { StreamFailure, TokenCounts } from './chat-stream-events.js';
import { matchPlainContentChunk, rewritePlainChunk } from './plain-content-chunk.js';
import { SyncEventTransform } from './sync-event-transform.js';

export interface ChatStreamOptions {
  /** The catalogue id actually used. */
  model: string;
  /** The gateway's `chatcmpl-<hex>` id for every chunk (see toClientChatCompletion for why). */
  id: string;
  /** The model hides its thinking: reasoning deltas never reach the client. */
  clearThinking: boolean;
  /** The client asked for `stream_options.include_usage`. */
  includeUsage: boolean;
  /** Filled with token counts as they arrive. */
  meta: TokenCounts;
  /** The model's price for its usage, added to the usage chunk as `cost`; absent: the model has none. */
  costOf?: ((inputTokens: number, outputTokens: number) => number) | undefined;
}

function isEmptyDelta(choice: unknown): boolean {
  if (typeof choice !== 'object' || choice === null) return false;
  const record = choice as Record<string, unknown>;
  const delta = record.delta;
  const emptyDelta = typeof delta === 'object' && delta !== null && Object.keys(delta).length === 0;
  return emptyDelta && record.finish_reason == null && record.logprobs == null;
}

/** Rewrites one chunk in place; returns false when nothing is left for the client. */
function rewriteChunk(chunk: Record<string, unknown>, options: ChatStreamOptions): boolean {
  chunk.id = options.id;
  chunk.model = options.model;
  const usage = readChunkUsage(chunk);
  if (usage !== undefined) recordUsage(options.meta, usage);
  if (!options.includeUsage && 'usage' in chunk) delete chunk.usage;
  else if (usage !== undefined && options.costOf !== undefined)
    (usage as unknown as Record<string, unknown>).cost = options.costOf(
      usage.prompt_tokens,
      usage.completion_tokens,
    );
  const choices = chunk.choices;
  if (!Array.isArray(choices)) return true;
  let removedReasoning = false;
  for (const choice of choices) {
    const delta =
      typeof choice === 'object' && choice !== null
        ? (choice as Record<string, unknown>).delta
        : undefined;
    if (typeof delta !== 'object' || delta === null) continue;
    const fields = delta as Record<string, unknown>;
    // vLLM up to 0.11 names it reasoning_content; the spec's field is reasoning.
    if ('reasoning_content' in fields) {
      if (!('reasoning' in fields)) fields.reasoning = fields.reasoning_content;
      delete fields.reasoning_content;
    }
    if (options.clearThinking && 'reasoning' in fields) {
      delete fields.reasoning;
      removedReasoning = true;
    }
  }
  // The usage-only chunk has no choices; without include_usage the client never sees it.
  if (choices.length === 0) return 'usage' in chunk;
  return !(removedReasoning && !('usage' in chunk) && choices.every(isEmptyDelta));
}

/**
 * The upstream chat stream as the client's: per chunk the model is the catalogue id, reasoning is
 * `reasoning` (or gone for models that hide it), the usage chunk only when asked for, then
 * `data: [DONE]`. A stream that fails, or ends without `[DONE]`, ends with a `data: {"error": ...}`
 * event and `[DONE]` (docs/design.md): never a clean end that a client could take for a full answer.
 */
class ChatStreamTransform extends SyncEventTransform<SseEvent, SseEvent> {
  private readonly idJson: string;
  private readonly modelJson: string;

  constructor(
    source: TakeableIterator<SseEvent> | AsyncIterator<SseEvent>,
    private readonly options: ChatStreamOptions,
  ) {
    super(source);
    this.idJson = JSON.stringify(options.id);
    this.modelJson = JSON.stringify(options.model);
  }

  protected step(event: SseEvent): boolean {
    // Most chunks are plain content deltas: rewritten in their text, the same bytes as parse,
    // rewriteChunk and stringify would give, without their cost on every chunk.
    const plain = matchPlainContentChunk(event.data);
    if (plain !== undefined) {
      this.out.push({ data: rewritePlainChunk(event.data, plain, this.idJson, this.modelJson) });
      return false;
    }
    const item = readChatStreamEvent(event);
    if (item.kind === 'done') {
      this.out.push(doneEvent);
      return true;
    }
    if (item.kind === 'failure') {
      this.fail(item.failure);
      return true;
    }
    if (rewriteChunk(item.chunk, this.options)) this.out.push({ data: JSON.stringify(item.chunk) });
    return false;
  }

  protected fail(failure: StreamFailure): void {
    this.out.push({ data: JSON.stringify({ error: failure }) }, doneEvent);
  }
}

/** The client's chat stream (see ChatStreamTransform), taking events as soon as `events` can hand them out. */
export function chatStreamToClientStream(
  events: AsyncIterable<SseEvent>,
  options: ChatStreamOptions,
): SyncEventTransform<SseEvent, SseEvent> {
  return new ChatStreamTransform(events[Symbol.asyncIterator](), options);
}
