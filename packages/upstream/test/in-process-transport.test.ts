import type { SseEvent } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import { createInProcessTransport } from '../src/in-process-transport.js';
import { call, makePort, upstreamAt } from './helpers/make-port.js';

const encoder = new TextEncoder();

describe('in-process transport', () => {
  it('calls a Web handler directly with the path, headers and body', async () => {
    const seen: Array<{ url: string; headers: Record<string, string>; body: unknown }> = [];
    const handler = async (request: Request) => {
      seen.push({
        url: request.url,
        headers: Object.fromEntries(request.headers),
        body: await request.json(),
      });
      return Response.json({ ok: true }, { status: 201, headers: { 'X-Local': '1' } });
    };
    const port = makePort(
      [upstreamAt('local', 'http://local-backend', { local: true })],
      createInProcessTransport(handler),
    );
    expect(await port.send(call())).toEqual({
      kind: 'json',
      status: 201,
      headers: expect.objectContaining({ 'x-local': '1' }),
      body: { ok: true },
      endpoint: 'local',
      attempts: 1,
    });
    expect(seen[0]?.url).toBe('http://local-backend/v1/chat/completions');
    expect(seen[0]?.headers).toMatchObject({
      'content-type': 'application/json',
      'x-request-id': 'req-1',
    });
    expect(seen[0]?.body).toEqual({
      model: 'served-m',
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('streams SSE from a handler and cancels its body when the client goes away', async () => {
    let cancelled = false;
    const handler = async () => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent === 0) controller.enqueue(encoder.encode('data: one\n\nda'));
          else if (sent === 1) controller.enqueue(encoder.encode('ta: two\n\n'));
          else await new Promise(() => {}); // a generation that never finishes
          sent += 1;
        },
        cancel() {
          cancelled = true;
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    };
    const client = new AbortController();
    const port = makePort(
      [upstreamAt('local', 'http://local-backend')],
      createInProcessTransport(handler),
    );
    const response = await port.send(call({ stream: true, signal: client.signal }));
    if (response.kind !== 'stream') throw new Error('expected a stream');
    const events: SseEvent[] = [];
    const iterator = response.events[Symbol.asyncIterator]();
    for (let index = 0; index < 2; index += 1) {
      const next = await iterator.next();
      if (next.done !== true) events.push(next.value);
    }
    expect(events).toEqual([{ data: 'one' }, { data: 'two' }]);
    const pending = iterator.next();
    client.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cancelled).toBe(true);
  });

  it('honours the first-event limit against a handler that never produces an event', async () => {
    let cancelled = false;
    const handler = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull: () => new Promise(() => {}),
          cancel: () => void (cancelled = true),
        }),
        {
          headers: { 'content-type': 'text/event-stream' },
        },
      );
    const port = makePort(
      [upstreamAt('local', 'http://local-backend')],
      createInProcessTransport(handler),
      { timeouts: { firstEventMs: 100 } },
    );
    await expect(port.send(call({ stream: true }))).rejects.toMatchObject({
      kind: 'timeout',
      phase: 'headers',
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cancelled).toBe(true);
  });

  it('turns a handler that throws into a non-retried failure', async () => {
    let calls = 0;
    const handler = async (): Promise<Response> => {
      calls += 1;
      throw new Error('boom at http://secret-host.internal');
    };
    const port = makePort(
      [upstreamAt('local', 'http://local-backend')],
      createInProcessTransport(handler),
    );
    const error: unknown = await port.send(call()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'protocol', phase: 'headers' });
    expect(String((error as Error).message)).not.toContain('secret-host');
    expect(calls).toBe(1);
  });
});
