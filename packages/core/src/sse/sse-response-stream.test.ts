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

describe('sseResponseStream keepalive comments', () => {
  /** A source whose next() settles only when `release` is called. */
  function gatedSource() {
    let release: () => void = () => undefined;
    let sent = false;
    const iterator: AsyncIterableIterator<SseEvent> = {
      async next() {
        if (sent) return { done: true, value: undefined };
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        sent = true;
        return { done: false, value: { data: 'late' } };
      },
      async return() {
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]() {
        return iterator;
      },
    };
    return { iterator, release: () => release() };
  }

  it('sends `: keepalive` while the next event is not ready, and none once it is', async () => {
    const source = gatedSource();
    const reader = sseResponseStream(source.iterator, { keepaliveMs: 20 }).getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe(': keepalive\n\n');
    expect(decoder.decode((await reader.read()).value)).toBe(': keepalive\n\n');
    source.release();
    let rest = '';
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      rest += decoder.decode(chunk.value);
    }
    expect(rest.replaceAll(': keepalive\n\n', '')).toBe('data: late\n\n');
  });

  it('stops sending comments once the client cancels', async () => {
    const source = gatedSource();
    const stream = sseResponseStream(source.iterator, { keepaliveMs: 5 });
    const reader = stream.getReader();
    const first = reader.read();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect((await first).value?.byteLength).toBeGreaterThan(0);
    await reader.cancel();
    // An interval left running would enqueue into a cancelled stream and throw from a timer.
    await new Promise((resolve) => setTimeout(resolve, 30));
    source.release();
  });

  it('sends no comment when keepaliveMs is 0', async () => {
    const { iterator } = countingSource(1);
    expect(await new Response(sseResponseStream(iterator, { keepaliveMs: 0 })).text()).toBe('data: 1\n\n');
  });
});
