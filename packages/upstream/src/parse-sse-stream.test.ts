import { isUpstreamError } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import { parseSseStream } from './parse-sse-stream.js';

const encoder = new TextEncoder();

async function* reads(...texts: string[]): AsyncGenerator<Uint8Array> {
  for (const text of texts) yield encoder.encode(text);
}

describe('parseSseStream', () => {
  it('yields each event once its blank line has arrived, whatever the reads', async () => {
    const events = [];
    for await (const event of parseSseStream(
      reads('data: {"a"', ':1}\r', '\n\r\nevent: done\ndata: [DONE]\n', '\n'),
      { maxEventBytes: 1024 },
    ))
      events.push(event);
    expect(events).toEqual([{ data: '{"a":1}' }, { event: 'done', data: '[DONE]' }]);
  });

  it('refuses a line that never ends with a body-phase too_large UpstreamError (fault-matrix row 26: a 502)', async () => {
    const endless = async function* (): AsyncGenerator<Uint8Array> {
      yield encoder.encode('data: ');
      for (;;) yield encoder.encode('x'.repeat(64));
    };
    let caught: unknown;
    try {
      for await (const event of parseSseStream(endless(), { maxEventBytes: 1000 }))
        expect(event).toBeUndefined();
    } catch (error) {
      caught = error;
    }
    expect(isUpstreamError(caught) && caught.kind === 'too_large' && caught.phase === 'body').toBe(
      true,
    );
  });
});
