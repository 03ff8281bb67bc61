import type { SseEvent } from './sse-event.js';

const LF = 0x0a;
const COLON = 0x3a;
const SPACE = 0x20;

export interface SseParserOptions {
  /**
   * Largest line, and largest sum of one event's data lines, in UTF-16 units (default: no limit). It
   * bounds memory as a byte count would (a unit takes one or two bytes in memory).
   */
  maxEventLength?: number;
  /** The error thrown past `maxEventLength` (the gateway's is a 502-bound UpstreamError, fault-matrix row 26). */
  tooLarge?: () => Error;
}

export interface SseParser {
  /** Feeds the next bytes as read from the network, cut anywhere; returns the events they complete. */
  push(chunk: Uint8Array): SseEvent[];
}

function isField(line: string, start: number, name: string): boolean {
  for (let index = 0; index < name.length; index += 1)
    if (line.charCodeAt(start + index) !== name.charCodeAt(index)) return false;
  return true;
}

/**
 * An incremental parser for the WHATWG server-sent events format, shared by the upstream reading, the
 * test kit and the SDK (which bundles it: no zod, no Node). A read may end anywhere, inside a
 * character, a line or a CRLF; an event ended by a lone CR is dispatched with the read that carries it;
 * `id` belongs to its own event only; an unterminated last event is dropped, as the standard says.
 */
export function createSseParser(options: SseParserOptions = {}): SseParser {
  const maxLength = options.maxEventLength ?? Number.POSITIVE_INFINITY;
  const tooLarge =
    options.tooLarge ??
    (() => new RangeError(`A server-sent event exceeded ${maxLength} characters.`));
  // The stream's first byte-order mark is dropped below; one inside a value is kept.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  // The start of a line whose end has not arrived yet.
  let partial = '';
  // The previous read ended in CR: a LF opening the next one belongs to the same line end.
  let afterCr = false;
  let started = false;
  let eventType: string | undefined;
  let eventId: string | undefined;
  let data: string | undefined;
  let dataLength = 0;

  function dispatch(events: SseEvent[]): void {
    if (data !== undefined) {
      if (eventType === undefined && eventId === undefined) events.push({ data });
      else {
        const event: SseEvent = { data };
        if (eventType !== undefined) event.event = eventType;
        if (eventId !== undefined) event.id = eventId;
        events.push(event);
      }
    }
    eventType = undefined;
    eventId = undefined;
    data = undefined;
    dataLength = 0;
  }

  function processLine(line: string, start: number, end: number, events: SseEvent[]): void {
    if (start === end) {
      dispatch(events);
      return;
    }
    if (line.charCodeAt(start) === COLON) return; // a comment (keepalives)
    // `data:` is nearly every line: its colon is found without a search.
    let colon =
      end - start > 4 && line.charCodeAt(start + 4) === COLON
        ? start + 4
        : line.indexOf(':', start);
    if (colon === -1 || colon > end) colon = end;
    let valueStart = colon === end ? end : colon + 1;
    if (valueStart < end && line.charCodeAt(valueStart) === SPACE) valueStart += 1;
    const fieldLength = colon - start;
    if (fieldLength === 4 && isField(line, start, 'data')) {
      dataLength += end - start;
      if (dataLength > maxLength) throw tooLarge();
      const value = line.slice(valueStart, end);
      data = data === undefined ? value : `${data}\n${value}`;
    } else if (fieldLength === 5 && isField(line, start, 'event')) {
      eventType = line.slice(valueStart, end);
    } else if (fieldLength === 2 && isField(line, start, 'id')) {
      const value = line.slice(valueStart, end);
      if (!value.includes('\0')) eventId = value;
    }
    // `retry` and unknown fields are ignored, as the standard says.
  }

  return {
    push(chunk) {
      const events: SseEvent[] = [];
      let text = decoder.decode(chunk, { stream: true });
      if (text.length === 0) return events;
      let lineStart = 0;
      if (!started) {
        started = true;
        if (text.charCodeAt(0) === 0xfeff) lineStart = 1;
      }
      if (afterCr) {
        afterCr = false;
        if (text.charCodeAt(lineStart) === LF) lineStart += 1;
      }
      // Most streams never send CR: then one search per line suffices.
      let nextCr = text.indexOf('\r', lineStart);
      let nextLf = text.indexOf('\n', lineStart);
      if (partial.length > 0) {
        if (nextCr === -1 && nextLf === -1) {
          if (partial.length + text.length - lineStart > maxLength) throw tooLarge();
          partial += lineStart === 0 ? text : text.slice(lineStart);
          return events;
        }
        // The line that began in earlier reads is completed here; the rest is scanned where it lies.
        const lineEnd = nextCr === -1 || (nextLf !== -1 && nextLf < nextCr) ? nextLf : nextCr;
        text = partial + text.slice(lineStart);
        const shift = partial.length - lineStart;
        partial = '';
        lineStart = 0;
        if (nextCr !== -1) nextCr += shift;
        if (nextLf !== -1) nextLf += shift;
        if (lineEnd + shift > maxLength) throw tooLarge();
      }
      while (nextLf !== -1 || nextCr !== -1) {
        const lineEnd = nextCr === -1 || (nextLf !== -1 && nextLf < nextCr) ? nextLf : nextCr;
        processLine(text, lineStart, lineEnd, events);
        lineStart = lineEnd + 1;
        if (lineEnd === nextCr) {
          if (lineStart === text.length) afterCr = true;
          else if (text.charCodeAt(lineStart) === LF) lineStart += 1;
          nextCr = text.indexOf('\r', lineStart);
        }
        if (nextLf !== -1 && nextLf < lineStart) nextLf = text.indexOf('\n', lineStart);
      }
      if (lineStart < text.length) {
        if (text.length - lineStart > maxLength) throw tooLarge();
        partial = text.slice(lineStart);
      }
      return events;
    },
  };
}
