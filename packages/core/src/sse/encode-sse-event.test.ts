import { describe, expect, it } from 'vitest';
import { encodeSseEvent } from './encode-sse-event.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('encodeSseEvent', () => {
  it('writes a chat event as exactly `data: <json>` and a blank line (protocols 1.2)', () => {
    expect(text(encodeSseEvent({ data: '{"a":1}' }))).toBe('data: {"a":1}\n\n');
    expect(text(encodeSseEvent({ data: '[DONE]' }))).toBe('data: [DONE]\n\n');
  });

  it('writes a responses event with its event line first (protocols 2.3)', () => {
    expect(text(encodeSseEvent({ event: 'response.created', data: '{}' }))).toBe('event: response.created\ndata: {}\n\n');
  });

  it('splits multi-line data into one data line each, so no line can end the event early', () => {
    expect(text(encodeSseEvent({ data: 'a\nb', id: '7' }))).toBe('id: 7\ndata: a\ndata: b\n\n');
  });

  it('keeps multi-byte characters intact', () => {
    expect(text(encodeSseEvent({ data: '"héllo ✓ 🎉"' }))).toBe('data: "héllo ✓ 🎉"\n\n');
  });
});
