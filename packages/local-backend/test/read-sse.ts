import { expect } from 'vitest';

export interface SseRead {
  /** JSON payloads in order, `[DONE]` excluded. */
  payloads: unknown[];
  /** performance.now() when each payload's bytes arrived. */
  arrivals: number[];
  done: boolean;
  raw: string;
}

/**
 * Reads a whole SSE body and checks vLLM's framing as it goes: every event is exactly one `data: ` line and a
 * blank line, nothing follows `data: [DONE]`.
 */
export async function readSse(response: Response): Promise<SseRead> {
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error('no body');
  const decoder = new TextDecoder();
  const read: SseRead = { payloads: [], arrivals: [], done: false, raw: '' };
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const now = performance.now();
    const text = decoder.decode(value, { stream: true });
    read.raw += text;
    buffer += text;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      expect(read.done, 'nothing may follow data: [DONE]').toBe(false);
      expect(event).toMatch(/^data: [^\n]+$/);
      const data = event.slice('data: '.length);
      if (data === '[DONE]') read.done = true;
      else {
        read.payloads.push(JSON.parse(data));
        read.arrivals.push(now);
      }
      end = buffer.indexOf('\n\n');
    }
  }
  expect(buffer).toBe('');
  return read;
}
