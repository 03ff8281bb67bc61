import { isUpstreamError } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import { createSseEventReader } from './sse-event-reader.js';
import { upstreamFailure } from './upstream-failure.js';

const encoder = new TextEncoder();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createSseEventReader', () => {
  it('hands out every event a read completes without reading again, then reads on for the next', async () => {
    let reads = 0;
    const chunks = async function* (): AsyncGenerator<Uint8Array> {
      reads += 1;
      yield encoder.encode('data: 1\n\ndata: 2\n\nevent: x\ndata: 3\n\ndata: 4');
      reads += 1;
      yield encoder.encode('\n\n');
    };
    const reader = createSseEventReader(chunks(), {
      maxEventBytes: 1024,
      signal: new AbortController().signal,
      idleMs: 0,
      onIdle: () => {},
    });
    expect(reader.take()).toBeUndefined();
    expect(await reader.read(true)).toEqual({ done: false, value: { data: '1' } });
    expect([reader.take(), reader.take(), reader.take()]).toEqual([
      { data: '2' },
      { event: 'x', data: '3' },
      undefined,
    ]);
    expect(reads).toBe(1);
    expect(await reader.read(true)).toEqual({ done: false, value: { data: '4' } });
    expect(await reader.read(true)).toEqual({ done: true, value: undefined });
    expect(reads).toBe(2);
  });

  it('keeps the idle limit running while only comments arrive (fault-matrix row 13)', async () => {
    const controller = new AbortController();
    let idleCalls = 0;
    const comments = async function* (): AsyncGenerator<Uint8Array> {
      for (;;) {
        await sleep(10);
        yield encoder.encode(': keepalive\n\n');
      }
    };
    const reader = createSseEventReader(comments(), {
      maxEventBytes: 1024,
      signal: controller.signal,
      idleMs: 80,
      onIdle: () => {
        idleCalls += 1;
        controller.abort(upstreamFailure('timeout', 'body'));
      },
    });
    const error = await reader.read(true).catch((caught: unknown) => caught);
    expect(idleCalls).toBe(1);
    expect(isUpstreamError(error) && error.kind === 'timeout' && error.phase === 'body').toBe(true);
    reader.release();
  });

  it('does not time the wait for the first event when told not to (another limit bounds it)', async () => {
    let idleCalls = 0;
    const late = async function* (): AsyncGenerator<Uint8Array> {
      await sleep(60);
      yield encoder.encode('data: late\n\n');
    };
    const reader = createSseEventReader(late(), {
      maxEventBytes: 1024,
      signal: new AbortController().signal,
      idleMs: 20,
      onIdle: () => (idleCalls += 1),
    });
    expect(await reader.read(false)).toEqual({ done: false, value: { data: 'late' } });
    expect(idleCalls).toBe(0);
  });
});
