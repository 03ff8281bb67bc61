import { expect, it } from 'vitest';
import { sseResponseHeaders } from './sse-response-headers.js';

it('names the headers that keep proxies from buffering or compressing events', () => {
  expect(sseResponseHeaders()).toEqual({
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  });
});
