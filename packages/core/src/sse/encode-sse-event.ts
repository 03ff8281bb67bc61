import type { SseEvent } from './sse-event.js';

const encoder = new TextEncoder();

/**
 * The wire bytes of one event: optional `event:` and `id:` lines, one `data:` line per line of data,
 * then a blank line. Compact JSON has no newline, so chat events are exactly `data: <json>\n\n`.
 */
export function encodeSseEvent(event: SseEvent): Uint8Array {
  let text = '';
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  text += event.data.includes('\n') ? event.data.split(/\r?\n/).map((line) => `data: ${line}\n`).join('') : `data: ${event.data}\n`;
  return encoder.encode(`${text}\n`);
}
