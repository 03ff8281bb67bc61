/** One server-sent event as a client sees it. */
export interface ReceivedEvent {
  event: string | undefined;
  data: string;
}

/** Splits SSE text into events (WHATWG rules: CRLF/LF lines, `data:` lines joined, comments skipped). */
export function parseSseText(text: string): ReceivedEvent[] {
  const events: ReceivedEvent[] = [];
  let event: string | undefined;
  let data: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (data.length > 0) events.push({ event, data: data.join('\n') });
      event = undefined;
      data = [];
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') data.push(value);
    if (field === 'event') event = value;
  }
  if (data.length > 0) events.push({ event, data: data.join('\n') });
  return events;
}

/** Reads a streamed response to its very end and returns its raw text and events. */
export async function readSse(response: Response): Promise<{ text: string; events: ReceivedEvent[] }> {
  const text = await response.text();
  return { text, events: parseSseText(text) };
}
