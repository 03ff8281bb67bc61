import { describe, expect, it } from 'vitest';
import { readSseMessages, SseDecoder, type SseMessage } from './sse-decoder.js';

// A chat-style stream and a responses-style stream with the framing quirks the SSE rules allow:
// CRLF and bare CR line ends, a comment (the gateway's keepalive), multi-line data, a non-ASCII delta.
const wire =
  ': keepalive\n\n' +
  'data: {"n":1}\r\n\r\n' +
  'event: response.output_text.delta\rdata: {"delta":"héllo ✓"}\r\r' +
  'data: line one\ndata: line two\n\n' +
  'id: 7\nevent: x\ndata\n\n' +
  'data: [DONE]\n\n';

const expected: SseMessage[] = [
  { event: undefined, data: '{"n":1}', id: undefined },
  { event: 'response.output_text.delta', data: '{"delta":"héllo ✓"}', id: undefined },
  { event: undefined, data: 'line one\nline two', id: undefined },
  { event: 'x', data: '', id: '7' },
  { event: undefined, data: '[DONE]', id: '7' },
];

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function collect(body: ReadableStream<Uint8Array>): Promise<SseMessage[]> {
  const messages: SseMessage[] = [];
  for await (const message of readSseMessages(body)) messages.push(message);
  return messages;
}

describe('SseDecoder', () => {
  it('parses the whole text in one push', () => {
    expect(new SseDecoder().push(wire)).toEqual(expected);
  });

  it('gives the same events whichever character the text is split at', () => {
    for (let split = 0; split <= wire.length; split += 1) {
      const decoder = new SseDecoder();
      const messages = [...decoder.push(wire.slice(0, split)), ...decoder.push(wire.slice(split))];
      expect(messages, `split at ${split}`).toEqual(expected);
    }
  });

  it('counts a CR at the end of one chunk and an LF at the start of the next as one line end', () => {
    const decoder = new SseDecoder();
    expect(decoder.push('data: a\r')).toEqual([]);
    // Were the LF a second line end, it would close the event here with no blank line sent.
    expect(decoder.push('\ndata: b\r')).toEqual([]);
    expect(decoder.push('\n\r\n')).toEqual([{ event: undefined, data: 'a\nb', id: undefined }]);
  });

  it('dispatches nothing for an event without data', () => {
    expect(new SseDecoder().push('event: ping\n\n: comment\n\n')).toEqual([]);
  });
});

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
    expect(await collect(streamOf([bytes]))).toEqual([{ event: undefined, data: 'whole', id: undefined }]);
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
