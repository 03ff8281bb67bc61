/** One server-sent event: `data` is its data lines joined by `\n`. */
export interface SseMessage {
  event: string | undefined;
  data: string;
  id: string | undefined;
}

/**
 * Incremental SSE parser after the WHATWG event-stream rules: text may be split anywhere, including
 * between the CR and LF of one line break; lines end in CRLF, LF or CR; `:` lines are comments (the
 * gateway's `: keepalive`); an event is dispatched at a blank line and only if it has data.
 */
export class SseDecoder {
  private buffer = '';
  private pendingCarriageReturn = false;
  private event: string | undefined;
  private id: string | undefined;
  private data: string[] = [];

  /** Feeds decoded text; returns the events it completed. */
  push(text: string): SseMessage[] {
    const messages: SseMessage[] = [];
    let start = 0;
    let index = 0;
    if (this.pendingCarriageReturn && text.startsWith('\n')) {
      start = 1;
      index = 1;
    }
    this.pendingCarriageReturn = false;
    for (; index < text.length; index += 1) {
      const char = text.charCodeAt(index);
      if (char !== 10 && char !== 13) continue;
      const line = this.buffer + text.slice(start, index);
      this.buffer = '';
      if (char === 13) {
        if (index + 1 === text.length) this.pendingCarriageReturn = true;
        else if (text.charCodeAt(index + 1) === 10) index += 1;
      }
      start = index + 1;
      const message = this.line(line);
      if (message !== undefined) messages.push(message);
    }
    this.buffer += text.slice(start);
    return messages;
  }

  private line(line: string): SseMessage | undefined {
    if (line === '') {
      const message = this.data.length > 0 ? { event: this.event, data: this.data.join('\n'), id: this.id } : undefined;
      this.event = undefined;
      this.data = [];
      return message;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return undefined;
  }
}

/** Decodes a byte stream into SSE messages as bytes arrive; UTF-8 sequences may be split across chunks. */
export async function* readSseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage, void, undefined> {
  const reader = body.getReader();
  const text = new TextDecoder();
  const decoder = new SseDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* decoder.push(text.decode(value, { stream: true }));
    }
    // An event not closed by a blank line at the end of the stream is dropped, as the SSE rules say.
    yield* decoder.push(text.decode());
  } finally {
    // Reached on break/return too: cancelling closes the connection, and the gateway aborts the generation.
    await reader.cancel().catch(() => undefined);
  }
}
