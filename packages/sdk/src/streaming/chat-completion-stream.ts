import { errorFromStreamEvent } from '../errors/error-from-response.js';
import type { ChatCompletionChunk } from '../types/chat-completion-types.js';
import { EventStream } from './event-stream.js';
import { parseEventJson, readStreamEvents, type StreamSource } from './read-stream-events.js';

/** What a chat stream adds up to (choice 0). */
export interface ChatCompletionStreamSummary {
  id: string | null;
  model: string | null;
  text: string;
  /** Exposed thinking (-agent and thinking models); empty when hidden. */
  reasoning: string;
  finishReason: string | null;
  /** Present when the gateway sent usage (request it with `stream_options: { include_usage: true }`). */
  usage: NonNullable<ChatCompletionChunk['usage']> | null;
}

function isErrorPayload(payload: unknown): boolean {
  return typeof payload === 'object' && payload !== null && 'error' in payload;
}

/** The chunks of a streamed chat completion; ends at `data: [DONE]`, throws on an error chunk. */
export class ChatCompletionStream extends EventStream<ChatCompletionChunk> {
  private readonly summary: ChatCompletionStreamSummary = {
    id: null,
    model: null,
    text: '',
    reasoning: '',
    finishReason: null,
    usage: null,
  };

  static fromSource(source: StreamSource, abortController: AbortController): ChatCompletionStream {
    const chunks = readStreamEvents<ChatCompletionChunk>(source, (message) => {
      if (message.data === '[DONE]') return { end: true };
      const payload = parseEventJson(message, source.requestId);
      // After its 200 the gateway reports a failure as `data: {"error": {...}}` then [DONE] (docs/design.md).
      if (isErrorPayload(payload)) throw errorFromStreamEvent(payload, source.requestId);
      return { event: payload as ChatCompletionChunk };
    });
    return new ChatCompletionStream(chunks, abortController, source.requestId);
  }

  protected override observe(chunk: ChatCompletionChunk): void {
    const summary = this.summary;
    summary.id ??= chunk.id;
    summary.model ??= chunk.model;
    if (chunk.usage) summary.usage = chunk.usage;
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue;
      if (typeof choice.delta.content === 'string') summary.text += choice.delta.content;
      if (typeof choice.delta.reasoning === 'string') summary.reasoning += choice.delta.reasoning;
      if (choice.finish_reason) summary.finishReason = choice.finish_reason;
    }
  }

  /** Reads the stream to its end and returns the text, reasoning, finish reason and usage. */
  async collect(): Promise<ChatCompletionStreamSummary> {
    await this.drain();
    return { ...this.summary };
  }

  /** Reads the stream to its end and returns the generated text. */
  async finalText(): Promise<string> {
    return (await this.collect()).text;
  }
}
