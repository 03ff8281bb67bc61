import type { SseEvent } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import { readSseMessages } from './read-sse-messages.js';

// A chat-style stream and a responses-style stream with the framing quirks the SSE rules allow:
// CRLF and bare CR line ends, a comment (the gateway's keepalive), multi-line data, a non-ASCII delta.
// Parsing itself is core's parser's, tested with it; these hold the SDK's byte-stream reading.
const wire =
  ': keepalive\n\n' +
  'data: {"n":1}\r\n\r\n' +
  'event: response.output_text.delta\rdata: {"delta":"héllo ✓"}\r\r' +
  'data: line one\ndata: line two\n\n' +
  'id: 7\nevent: x\ndata\n\n' +
  'data: [DONE]\n\n';

const expected: SseEvent[] = [
  { event: undefined, data: '{"n":1}', id: undefined },
  { event: 'response.output_text.delta', data: '{"delta":"héllo ✓"}', id: undefined },
  { event: undefined, data: 'line one\nline two', id: undefined },
  { event: 'x', data: '', id: '7' },
  // Core's parser gives an id only to the event whose block carried it; the SDK reads no ids.
  { event: undefined, data: '[DONE]', id: undefined },
];

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function collect(body: ReadableStream<Uint8Array>): Promise<SseEvent[]> {
  const messages: SseEvent[] = [];
  for await (const message of readSseMessages(body)) messages.push(message);
  return messages;
}

describe('readSseMessages', () => {
  it('decodes bytes split anywhere, including inside a multi-byte character', async () => {
    const bytes = new TextEncoder().encode(wire);
    for (let split = 0; split <= bytes.length; split += 1) {
      const messages = await collect(streamOf([bytes.slice(0, split), bytes.slice(split)]));
      expect(messages, `split at byte ${split}`).toEqual(expected);
    }
  });

  it('decodes a stream delivered one byte at a time', async () => {
    const bytes = new TextEncoder().encode(wire);
    const chunks = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(await collect(streamOf(chunks))).toEqual(expected);
  });

  it('drops an event the stream ends before closing', async () => {
    const bytes = new TextEncoder().encode('data: whole\n\ndata: cut off');
    expect(await collect(streamOf([bytes]))).toEqual([
      { event: undefined, data: 'whole', id: undefined },
    ]);
  });

  it('cancels the body when the reader stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: again\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const message of readSseMessages(body)) {
      expect(message.data).toBe('again');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
