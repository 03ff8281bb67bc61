import { errorFromStreamEvent } from '../errors/error-from-response.js';
import type { Response, ResponseStreamEvent, ResponseUsage } from '../types/response-types.js';
import { EventStream } from './event-stream.js';
import { parseEventJson, readStreamEvents, type StreamSource } from './read-stream-events.js';

export interface ResponseStreamSummary {
  text: string;
  usage: ResponseUsage | null;
  /** The final response object of `response.completed` (or `response.incomplete`). */
  response: Response | null;
}

function typeOf(payload: unknown): unknown {
  return typeof payload === 'object' && payload !== null
    ? (payload as { type?: unknown }).type
    : undefined;
}

/** Events of a streamed response, by `type`; ends at the terminal event, throws on `error` and `response.failed`. */
export class ResponseStream extends EventStream<ResponseStreamEvent> {
  private readonly summary: ResponseStreamSummary = { text: '', usage: null, response: null };

  static fromSource(source: StreamSource, abortController: AbortController): ResponseStream {
    const events = readStreamEvents<ResponseStreamEvent>(source, (message) => {
      // The responses protocol has no [DONE]; tolerated in case a relay adds one.
      if (message.data === '[DONE]') return { end: true };
      const payload = parseEventJson(message, source.requestId);
      const type = typeOf(payload);
      if (message.event === 'error' || type === 'error')
        throw errorFromStreamEvent(payload, source.requestId);
      if (type === 'response.failed') {
        const failed = payload as { response?: { error?: unknown } };
        throw errorFromStreamEvent(failed.response?.error ?? payload, source.requestId);
      }
      const terminal = type === 'response.completed' || type === 'response.incomplete';
      return { event: payload as ResponseStreamEvent, end: terminal };
    });
    return new ResponseStream(events, abortController, source.requestId);
  }

  protected override observe(event: ResponseStreamEvent): void {
    if (event.type === 'response.output_text.delta') this.summary.text += event.delta;
    if (event.type === 'response.completed' || event.type === 'response.incomplete') {
      this.summary.response = event.response;
      this.summary.usage = event.response.usage;
    }
  }

  /** Reads the stream to its end and returns the text, usage and final response. */
  async collect(): Promise<ResponseStreamSummary> {
    await this.drain();
    return { ...this.summary };
  }

  /** Reads the stream to its end and returns the generated text. */
  async finalText(): Promise<string> {
    return (await this.collect()).text;
  }
}
