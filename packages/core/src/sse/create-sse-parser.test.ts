import { describe, expect, it } from 'vitest';
import { createSseParser } from './create-sse-parser.js';
import type { SseEvent } from './sse-event.js';

const encoder = new TextEncoder();

// Mixed line ends (CRLF, LF, lone CR), a comment, multi-line data, an id and a 4-byte UTF-8 character.
const sample =
  ': keepalive\r\n' +
  'event: response.created\r\n' +
  'data: {"a":1}\r\n' +
  '\r\n' +
  'data: line one\n' +
  'data: line two \u{1F600} \u00e9\n' +
  'id: 7\n' +
  '\n' +
  'data:no-space\r' +
  '\r' +
  'event: done\n' +
  'data: [DONE]\n\n';

// Written from the WHATWG event-stream rules, not from the parser's output.
const expected: SseEvent[] = [
  { event: 'response.created', data: '{"a":1}' },
  { data: 'line one\nline two \u{1F600} \u00e9', id: '7' },
  { data: 'no-space' },
  { event: 'done', data: '[DONE]' },
];

class TooLarge extends Error {}
const tooLarge = () => new TooLarge('the event is too large');

function parseIn(pieces: Uint8Array[], maxEventLength = 1024): SseEvent[] {
  const parser = createSseParser({ maxEventLength, tooLarge });
  return pieces.flatMap((piece) => parser.push(piece));
}

describe('createSseParser', () => {
  const bytes = encoder.encode(sample);

  it('parses the sample read in one piece', () => {
    expect(parseIn([bytes])).toEqual(expected);
  });

  it('gives the same events for a split at every byte offset (inside the 4-byte character, between CR and LF)', () => {
    const emoji = bytes.indexOf(0xf0);
    expect(emoji).toBeGreaterThan(0); // the sample really holds a 4-byte sequence
    for (let offset = 0; offset <= bytes.length; offset += 1) {
      expect(
        parseIn([bytes.subarray(0, offset), bytes.subarray(offset)]),
        `split at ${offset}`,
      ).toEqual(expected);
    }
  });

  it('gives the same events for every split into three pieces', () => {
    for (let first = 1; first < bytes.length; first += 1) {
      for (let second = first; second < bytes.length; second += 3) {
        expect(
          parseIn([
            bytes.subarray(0, first),
            bytes.subarray(first, second),
            bytes.subarray(second),
          ]),
        ).toEqual(expected);
      }
    }
  });

  it('gives the same events when read one byte at a time', () => {
    expect(parseIn([...bytes].map((byte) => Uint8Array.of(byte)))).toEqual(expected);
  });

  it('strips a leading byte order mark, even split across reads', () => {
    const withBom = encoder.encode('\uFEFFdata: x\n\n');
    expect(parseIn([withBom.subarray(0, 2), withBom.subarray(2)])).toEqual([{ data: 'x' }]);
  });

  it('treats a field without a colon as an empty value and dispatches `data` alone as an empty event', () => {
    expect(parseIn([encoder.encode('data\n\ndata:\ndata:\n\n')])).toEqual([
      { data: '' },
      { data: '\n' },
    ]);
  });

  it('does not dispatch a block without data, nor an unterminated last event', () => {
    expect(parseIn([encoder.encode('event: ping\nid: 1\n\n: comment\n\ndata: cut off')])).toEqual(
      [],
    );
  });

  it('ignores retry and unknown fields', () => {
    expect(parseIn([encoder.encode('retry: 10\nfoo: bar\ndata: x\n\n')])).toEqual([{ data: 'x' }]);
  });

  it('dispatches an event ended by a lone CR with the read that carries its blank line, not the next one', () => {
    const parser = createSseParser();
    expect(parser.push(encoder.encode('data: a\r\r'))).toEqual([{ data: 'a' }]);
    expect(parser.push(encoder.encode('\ndata: b\r\r'))).toEqual([{ data: 'b' }]);
  });

  it("keeps a byte order mark inside a value; only the stream's first one is dropped", () => {
    expect(parseIn([encoder.encode('\uFEFFdata: \uFEFFx\n\n')])).toEqual([{ data: '\uFEFFx' }]);
  });

  it("refuses a line that never ends past the cap, with the caller's error (fault-matrix row 26)", () => {
    const parser = createSseParser({ maxEventLength: 100, tooLarge });
    parser.push(encoder.encode('data: '));
    expect(() => {
      for (let index = 0; index < 10; index += 1) parser.push(encoder.encode('x'.repeat(20)));
    }).toThrow(TooLarge);
  });

  it('refuses an event whose data lines add up past the cap', () => {
    const parser = createSseParser({ maxEventLength: 100, tooLarge });
    expect(() =>
      parser.push(encoder.encode('data: 0123456789012345678901234567890123456789\n'.repeat(5))),
    ).toThrow(TooLarge);
  });

  it('has no cap unless given one', () => {
    const long = 'x'.repeat(200_000);
    expect(createSseParser().push(encoder.encode(`data: ${long}\n\n`))).toEqual([{ data: long }]);
  });
});
