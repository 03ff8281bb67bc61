import { describe, expect, it } from 'vitest';
import { encodeSseEvent, encodeSseEvents } from './encode-sse-event.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('encodeSseEvent', () => {
  it('writes a chat event as exactly `data: <json>` and a blank line', () => {
    expect(text(encodeSseEvent({ data: '{"a":1}' }))).toBe('data: {"a":1}\n\n');
    expect(text(encodeSseEvent({ data: '[DONE]' }))).toBe('data: [DONE]\n\n');
  });

  it('writes a responses event with its event line first', () => {
    expect(text(encodeSseEvent({ event: 'response.created', data: '{}' }))).toBe(
      'event: response.created\ndata: {}\n\n',
    );
  });

  it('splits multi-line data into one data line each, so no line can end the event early', () => {
    expect(text(encodeSseEvent({ data: 'a\nb', id: '7' }))).toBe('id: 7\ndata: a\ndata: b\n\n');
  });

  it('gives each event its own bytes, at their exact size, however long the data and however many events', () => {
    const first = encodeSseEvent({ data: '{"n":1}' });
    const second = encodeSseEvent({ event: 'e', id: '2', data: 'x' });
    const long = 'é'.repeat(20_000);
    expect(text(first)).toBe('data: {"n":1}\n\n');
    expect(text(second)).toBe('event: e\nid: 2\ndata: x\n\n');
    expect(text(encodeSseEvent({ data: long }))).toBe(`data: ${long}\n\n`);
    expect(text(encodeSseEvent({ event: 'e'.repeat(300), data: 'y' }))).toBe(
      `event: ${'e'.repeat(300)}\ndata: y\n\n`,
    );
    expect(first.byteLength).toBe(15);
    // Later events do not overwrite earlier ones (they share a slab).
    expect(text(first)).toBe('data: {"n":1}\n\n');
    const many = Array.from({ length: 200 }, (_, index) =>
      encodeSseEvent({ data: `{"n":${index}}` }),
    );
    expect(many.map(text)).toEqual(
      Array.from({ length: 200 }, (_, index) => `data: {"n":${index}}\n\n`),
    );
  });

  it('keeps multi-byte characters intact', () => {
    expect(text(encodeSseEvent({ data: '"héllo ✓ 🎉"' }))).toBe('data: "héllo ✓ 🎉"\n\n');
  });
});

describe('encodeSseEvents', () => {
  it('writes several events as one chunk: each framed as on its own, in order', () => {
    const events = [
      { data: '{"a":1}' },
      { event: 'response.created', data: '{}' },
      { data: 'a\r\nb', id: '7' },
      { data: '"héllo ✓ 🎉"' },
      { data: '[DONE]' },
    ];
    expect(text(encodeSseEvents(events))).toBe(
      'data: {"a":1}\n\nevent: response.created\ndata: {}\n\nid: 7\ndata: a\ndata: b\n\ndata: "héllo ✓ 🎉"\n\ndata: [DONE]\n\n',
    );
  });

  it('gives each chunk its own bytes, at their exact size, whether it fits a slab, overflows one with wide characters, or is longer', () => {
    const small = encodeSseEvents([{ data: '1' }, { data: '2' }]);
    const wide = Array.from({ length: 3 }, () => ({ data: '€'.repeat(2_000) }));
    const wideChunk = encodeSseEvents(wide);
    const long = Array.from({ length: 40 }, (_, index) => ({
      data: `{"n":${index},"pad":"${'x'.repeat(300)}"}`,
    }));
    const longChunk = encodeSseEvents(long);
    const after = encodeSseEvents([{ data: '3' }, { data: '4' }]);
    expect(text(small)).toBe('data: 1\n\ndata: 2\n\n');
    expect(small.byteLength).toBe(18);
    expect(text(wideChunk)).toBe(wide.map((event) => `data: ${event.data}\n\n`).join(''));
    expect(wideChunk.byteLength).toBe(3 * (6 + 3 * 2_000 + 2));
    expect(text(longChunk)).toBe(long.map((event) => `data: ${event.data}\n\n`).join(''));
    expect(text(after)).toBe('data: 3\n\ndata: 4\n\n');
    // Later chunks do not overwrite earlier ones (they share a slab).
    expect(text(small)).toBe('data: 1\n\ndata: 2\n\n');
  });
});
