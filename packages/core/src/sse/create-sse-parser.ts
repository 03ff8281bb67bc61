import type { SseEvent } from '@infergate/core';
import { upstreamFailure } from './upstream-failure.js';

const LF = 0x0a;
const CR = 0x0d;

export interface SseParserOptions {
  /** Largest line, and largest sum of one event's data lines, in bytes; past it the stream is refused (fault-matrix row 26). */
  maxEventBytes: number;
}

export interface SseParser {
  /** Feeds the next bytes as read from the network, cut anywhere; returns the events they complete. */
  push(chunk: Uint8Array): SseEvent[];
}

/**
 * An incremental parser for the WHATWG server-sent events format. It splits lines on bytes, which is
 * safe because CR and LF never occur inside a multi-byte UTF-8 sequence, and decodes only whole
 * lines, so a read that ends inside a character, between CR and LF or inside a `data:` line changes
 * nothing. `id` is reported on the event whose block carried it (not carried forward), and an event
 * without a terminating blank line at the end of the stream is dropped, as the standard says.
 */
export function createSseParser(options: SseParserOptions): SseParser {
  const decoder = new TextDecoder();
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  // The previous chunk ended in CR: a LF opening the next one belongs to the same line end.
  let afterCr = false;
  let firstLine = true;
  let eventType = '';
  let eventId: string | undefined;
  let dataLines: string[] = [];
  let dataBytes = 0;

  const tooLarge = () => upstreamFailure('too_large', 'body', undefined, 'A streamed event exceeded the size limit.');

  function takeLine(tail: Uint8Array): Uint8Array {
    if (pending.length === 0) return tail;
    const line = new Uint8Array(pendingBytes + tail.length);
    let offset = 0;
    for (const piece of pending) {
      line.set(piece, offset);
      offset += piece.length;
    }
    line.set(tail, offset);
    pending = [];
    pendingBytes = 0;
    return line;
  }

  function processLine(bytes: Uint8Array, events: SseEvent[]): void {
    let text = decoder.decode(bytes);
    if (firstLine) {
      firstLine = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (text === '') {
      if (dataLines.length > 0) {
        const event: SseEvent = { data: dataLines.join('\n') };
        if (eventType !== '') event.event = eventType;
        if (eventId !== undefined) event.id = eventId;
        events.push(event);
      }
      eventType = '';
      eventId = undefined;
      dataLines = [];
      dataBytes = 0;
      return;
    }
    if (text.charCodeAt(0) === 0x3a) return; // ':' starts a comment (keepalives)
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (field === 'data') {
      dataBytes += bytes.length;
      if (dataBytes > options.maxEventBytes) throw tooLarge();
      dataLines.push(value);
    } else if (field === 'event') {
      eventType = value;
    } else if (field === 'id') {
      if (!value.includes('\0')) eventId = value;
    }
    // `retry` and unknown fields are ignored, as the standard says.
  }

  return {
    push(chunk) {
      const events: SseEvent[] = [];
      let lineStart = 0;
      let index = 0;
      if (afterCr && chunk.length > 0) {
        afterCr = false;
        if (chunk[0] === LF) {
          lineStart = 1;
          index = 1;
        }
      }
      for (; index < chunk.length; index += 1) {
        const byte = chunk[index];
        if (byte !== LF && byte !== CR) continue;
        processLine(takeLine(chunk.subarray(lineStart, index)), events);
        if (byte === CR) {
          if (index + 1 === chunk.length) afterCr = true;
          else if (chunk[index + 1] === LF) index += 1;
        }
        lineStart = index + 1;
      }
      if (lineStart < chunk.length) {
        // Copied so a large network buffer is not kept alive by a small tail.
        const tail = chunk.slice(lineStart);
        pending.push(tail);
        pendingBytes += tail.length;
        if (pendingBytes > options.maxEventBytes) throw tooLarge();
      }
      return events;
    },
  };
}
