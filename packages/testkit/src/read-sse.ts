import { createSseParser } from '@infergate/core';

/** One server-sent event as a client sees it. */
export interface ReceivedEvent {
  event: string | undefined;
  data: string;
}

const encoder = new TextEncoder();

/**
 * Splits SSE text into events with the parser the gateway reads upstream streams with (WHATWG rules:
 * CRLF, LF or CR lines, `data:` lines joined, comments skipped, an event not closed by a blank line
 * dropped, so a stream the gateway cuts short shows as a missing event).
 */
export function parseSseText(text: string): ReceivedEvent[] {
  return createSseParser()
    .push(encoder.encode(text))
    .map((event) => ({ event: event.event, data: event.data }));
}

/** Reads a streamed response to its very end and returns its raw text and events. */
export async function readSse(
  response: Response,
): Promise<{ text: string; events: ReceivedEvent[] }> {
  const text = await response.text();
  return { text, events: parseSseText(text) };
}
