import { describe, expect, it } from 'vitest';
import type { SseEvent } from './sse-event.js';
import { sseResponseHeaders, sseResponseStream } from './sse-response-stream.js';

function countingSource(total: number) {
  const state = { pulled: 0, returned: false };
  const iterator: AsyncIterableIterator<SseEvent> = {
    async next() {
      if (state.returned || state.pulled >= total) return { done: true, value: undefined };
      state.pulled += 1;
      return { done: false, value: { data: String(state.pulled) } };
    },
    async return() {
      state.returned = true;
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return { iterator, state };
}

describe('sseResponseStream', () => {
  it('encodes every event and closes at the end of the source', async () => {
    const { iterator } = countingSource(2);
    const text = await new Response(sseResponseStream(iterator)).text();
    expect(text).toBe('data: 1\n\ndata: 2\n\n');
  });

  it('pulls from the source only as the reader reads', async () => {
    const { iterator, state } = countingSource(100);
    const reader = sseResponseStream(iterator).getReader();
    await Promise.resolve();
    expect(state.pulled).toBe(0);
    await reader.read();
    expect(state.pulled).toBe(1);
    await reader.read();
    expect(state.pulled).toBe(2);
    await reader.cancel();
  });

  it('cancel calls the source return() (which aborts the upstream) and the onCancel hook', async () => {
    const { iterator, state } = countingSource(100);
    let hooked = 0;
    const reader = sseResponseStream(iterator, { onCancel: () => (hooked += 1) }).getReader();
    await reader.read();
    await reader.cancel();
    expect(state.returned).toBe(true);
    expect(hooked).toBe(1);
  });

  it('names the headers that keep proxies from buffering or compressing events', () => {
    expect(sseResponseHeaders()).toEqual({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' });
  });
});
