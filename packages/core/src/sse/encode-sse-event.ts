import type { SseEvent } from './sse-event.js';

const encoder = new TextEncoder();

const dataPrefix = encoder.encode('data: ');
const eventEnd = encoder.encode('\n\n');
// Node's TextEncoder.encode allocates an ArrayBuffer per call, most of its cost for a small chat event,
// and a stream has dozens of them. Events are encoded in place into shared 8 KiB slabs and handed out
// as views of them, as Node's Buffer pool does: no `data: ...` string built and flattened, one
// allocation per slab. A view keeps its slab alive, so an event a slow
// client has not read holds at most 8 KiB. Encoding is synchronous, so sharing a slab is safe.
const slabSize = 8 * 1024;
// Room for the event and id lines (below 200 code units) and the framing.
const headRoom = 3 * 200 + 16;
// UTF-8 takes at most 3 bytes per UTF-16 code unit; longer events get their own buffer.
const maxSlabData = Math.floor((slabSize - headRoom) / 3);
let slab = new Uint8Array(slabSize);
let slabOffset = 0;

/**
 * The wire bytes of one event: optional `event:` and `id:` lines, one `data:` line per line of data,
 * then a blank line. Compact JSON has no newline, so chat events are exactly `data: <json>\n\n`.
 */
export function encodeSseEvent(event: SseEvent): Uint8Array {
  const lines = (event.event?.length ?? 0) + (event.id?.length ?? 0);
  if (lines < 200 && event.data.length <= maxSlabData && !event.data.includes('\n')) {
    if (slabSize - slabOffset < headRoom + 3 * event.data.length) {
      slab = new Uint8Array(slabSize);
      slabOffset = 0;
    }
    const start = slabOffset;
    let end = start;
    if (event.event === undefined && event.id === undefined) {
      slab.set(dataPrefix, end);
      end += dataPrefix.length;
    } else {
      const head = `${event.event === undefined ? '' : `event: ${event.event}\n`}${event.id === undefined ? '' : `id: ${event.id}\n`}data: `;
      end += encoder.encodeInto(head, slab.subarray(end)).written;
    }
    end += encoder.encodeInto(event.data, slab.subarray(end)).written;
    slab.set(eventEnd, end);
    end += eventEnd.length;
    slabOffset = end;
    return slab.subarray(start, end);
  }
  return encoder.encode(sseEventText(event));
}

/** The wire text of one event, blank line included. */
function sseEventText(event: SseEvent): string {
  if (event.event === undefined && event.id === undefined && !event.data.includes('\n'))
    return `data: ${event.data}\n\n`;
  let text = '';
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  text += event.data.includes('\n')
    ? event.data
        .split(/\r?\n/)
        .map((line) => `data: ${line}\n`)
        .join('')
    : `data: ${event.data}\n`;
  return `${text}\n`;
}

/**
 * The wire bytes of several events as one chunk (the events one upstream read completed): their text
 * joined and encoded once, into a slab as above when it fits. Joining then encoding once costs less
 * per event than encoding each into its own view, and the chunk leaves in one write.
 */
export function encodeSseEvents(events: readonly SseEvent[]): Uint8Array {
  let text = '';
  for (const event of events) text += sseEventText(event);
  if (text.length > slabSize) return encoder.encode(text);
  // ASCII (most streams) takes one byte per code unit: tried in the slab's room when the text's
  // length fits, and encoded on its own in the rare case where wider characters overflow it.
  if (slabSize - slabOffset < text.length) {
    slab = new Uint8Array(slabSize);
    slabOffset = 0;
  }
  const start = slabOffset;
  const { read, written } = encoder.encodeInto(text, slab.subarray(start));
  if (read !== text.length) return encoder.encode(text);
  slabOffset = start + written;
  return slab.subarray(start, slabOffset);
}
