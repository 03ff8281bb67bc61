import { isUpstreamError } from '@infergate/core';
import type {
  SseEvent,
  UpstreamError,
  UpstreamResponse,
  UpstreamStreamResponse,
} from '@infergate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchTransport } from '../src/fetch-transport.js';
import type { Transport } from '../src/transport.js';
import { createUndiciTransport } from '../src/undici-transport.js';
import { call, makePort, upstreamAt } from './helpers/make-port.js';
import {
  closedPort,
  closedWithin,
  drainedOrClosed,
  json,
  sleep,
  sseHeaders,
  startStub,
} from './helpers/stub-upstream.js';
import type { StubUpstream } from './helpers/stub-upstream.js';

// The same behaviour is required of both network transports (fault-matrix rows 10-17, 26).
const transports: Array<[string, () => Transport & { close?(): Promise<void> }]> = [
  ['undici', () => createUndiciTransport()],
  ['fetch', () => createFetchTransport()],
];

const sseSample =
  'data: {"n":1}\r\n\r\n: keepalive\n\nevent: e\ndata: caf\u00e9 \u{1F600}\ndata: second line\n\ndata: [DONE]\n\n';
const sseExpected: SseEvent[] = [
  { data: '{"n":1}' },
  { event: 'e', data: 'caf\u00e9 \u{1F600}\nsecond line' },
  { data: '[DONE]' },
];

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    if (isUpstreamError(error)) return error;
    throw error;
  }
  throw new Error('expected an UpstreamError');
}

function asStream(response: UpstreamResponse): UpstreamStreamResponse {
  if (response.kind !== 'stream')
    throw new Error(`expected a stream, got ${response.kind} ${response.status}`);
  return response;
}

async function collect(
  events: AsyncIterable<SseEvent>,
): Promise<{ events: SseEvent[]; error: unknown }> {
  const seen: SseEvent[] = [];
  try {
    for await (const event of events) seen.push(event);
  } catch (error) {
    return { events: seen, error };
  }
  return { events: seen, error: undefined };
}

describe.each(transports)('%s transport through the port', (_name, makeTransport) => {
  const cleanups: Array<() => Promise<void>> = [];
  const stub = async (...args: Parameters<typeof startStub>): Promise<StubUpstream> => {
    const server = await startStub(...args);
    cleanups.push(() => server.close());
    return server;
  };
  const transport = (): Transport => {
    const made = makeTransport();
    if (made.close !== undefined) cleanups.push(() => made.close!());
    return made;
  };
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('sends the body as is with the upstream key, content type, accept and request id, and parses JSON', async () => {
    const server = await stub((_request, response) =>
      json(response, 200, { ok: true }, { 'X-Upstream': 'yes' }),
    );
    const port = makePort([upstreamAt('a', server.url, { apiKey: 'sk-up' })], transport());
    const response = await port.send(call());
    expect(response).toEqual({
      kind: 'json',
      status: 200,
      headers: expect.objectContaining({ 'x-upstream': 'yes' }),
      body: { ok: true },
      endpoint: 'a',
      attempts: 1,
    });
    const [seen] = server.requests;
    expect(seen?.method).toBe('POST');
    expect(seen?.path).toBe('/v1/chat/completions');
    expect(JSON.parse(seen?.body ?? '')).toEqual({
      model: 'served-m',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(seen?.headers).toMatchObject({
      authorization: 'Bearer sk-up',
      'content-type': 'application/json',
      accept: 'application/json',
      'x-request-id': 'req-1',
    });
  });

  it('sends a body with long strings (an image data URL) byte for byte with its Content-Length, again on a retry', async () => {
    const image = `data:image/png;base64,${'iVBORw0KGgo+/='.repeat(150_000)}`;
    const body = {
      model: 'served-m',
      prompt: 'a "sky" \u00e9\u{1F600}',
      images: [{ image_url: image }, { image_url: `${image}AA` }],
      n: 1,
    };
    const expected = JSON.stringify(body);
    const server = await stub((_request, response, _recorded, index) => {
      if (index === 0) json(response, 503, { error: { message: 'busy' } });
      else json(response, 200, { ok: true });
    });
    const port = makePort([upstreamAt('a', server.url)], transport());
    expect(await port.send(call({ body }))).toMatchObject({
      kind: 'json',
      status: 200,
      body: { ok: true },
      attempts: 2,
    });
    expect(server.requests).toHaveLength(2);
    for (const seen of server.requests) {
      expect(seen.headers['content-length']).toBe(String(Buffer.byteLength(expected)));
      expect(seen.headers['transfer-encoding']).toBeUndefined();
      expect(seen.body === expected).toBe(true);
    }
  });

  it('sends bodies without long strings byte for byte with their Content-Length, again on a retry: short, long in many parts, one long non-ASCII string', async () => {
    const history = Array.from({ length: 300 }, (_, index) => ({
      role: index % 2 === 0 ? 'user' : 'assistant',
      content: `tour ${index}: caf\u00e9 "\u2713" \\ ${'x'.repeat(400)}`,
    }));
    const bodies = [
      {
        model: 'served-m',
        messages: [{ role: 'user', content: 'h\u00e9llo \u{1F600}\n' }],
        temperature: 0.5,
        stop: null,
      },
      { model: 'served-m', messages: history },
      { model: 'served-m', input: `${'\u00e9\u4e2d"'.repeat(30_000)}` },
    ];
    for (const body of bodies) {
      const expected = JSON.stringify(body);
      const server = await stub((_request, response, _recorded, index) => {
        if (index === 0) json(response, 503, { error: { message: 'busy' } });
        else json(response, 200, { ok: true });
      });
      const port = makePort([upstreamAt('a', server.url)], transport());
      expect(await port.send(call({ body }))).toMatchObject({
        kind: 'json',
        status: 200,
        attempts: 2,
      });
      expect(server.requests).toHaveLength(2);
      for (const seen of server.requests) {
        expect(seen.headers['content-length']).toBe(String(Buffer.byteLength(expected)));
        expect(seen.body === expected).toBe(true);
      }
    }
  });

  it('hands back the bytes of a 2xx answer to a raw call as sent, in pieces, and still parses an error answer', async () => {
    const sent =
      '{"data":[{"index":0,"embedding":[-0.0,1e-05,7]}], "caf\\u00e9":"\u00e9\u{1F600}"}';
    let status = 200;
    const server = await stub((_request, response) => {
      const text = status === 200 ? sent : JSON.stringify({ error: { message: 'no such model' } });
      response.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
      });
      response.end(text);
    });
    const port = makePort([upstreamAt('a', server.url)], transport());
    const answer = await port.send({ ...call(), raw: true });
    expect(answer).toMatchObject({ kind: 'json', status: 200, body: undefined });
    expect(
      answer.kind === 'json' && Buffer.concat(answer.pieces ?? []).equals(Buffer.from(sent)),
    ).toBe(true);
    status = 404;
    const failed = await port.send({ ...call(), raw: true });
    expect(failed).toMatchObject({
      kind: 'json',
      status: 404,
      body: { error: { message: 'no such model' } },
    });
    expect(failed).not.toHaveProperty('pieces');
  });

  it('reuses one keep-alive connection for sequential requests', async () => {
    const server = await stub((_request, response) => json(response, 200, { ok: true }));
    const port = makePort([upstreamAt('a', server.url)], transport());
    for (let index = 0; index < 10; index += 1) await port.send(call());
    expect(server.requests).toHaveLength(10);
    // A request sent the moment the previous body ended may find that connection not yet released
    // and open one more; without keep-alive it would be 10.
    expect(server.connections()).toBeLessThanOrEqual(2);
  });

  it('returns an unparseable or empty body as undefined with its status', async () => {
    const server = await stub((_request, response, _recorded, index) => {
      response.writeHead(index === 0 ? 500 : 502, { 'content-type': 'text/html' });
      response.end(index === 0 ? '<html>oops</html>' : '');
    });
    const port = makePort([upstreamAt('a', server.url)], transport(), {
      retries: { attempts: 0, budgetPercent: 20, budgetFloor: 3 },
    });
    expect(await port.send(call())).toMatchObject({ kind: 'json', status: 500, body: undefined });
    expect(await port.send(call())).toMatchObject({ kind: 'json', status: 502, body: undefined });
  });

  it('gives the same events for an SSE body split at every byte offset', async () => {
    const bytes = Buffer.from(sseSample, 'utf8');
    // Each request names its split offset in the body; the stub writes the two pieces separately.
    const splitting = await stub(async (_request, response, recorded) => {
      const { offset } = JSON.parse(recorded.body) as { offset: number };
      sseHeaders(response);
      response.write(bytes.subarray(0, offset));
      await sleep(2);
      response.end(bytes.subarray(offset));
    });
    const port = makePort([upstreamAt('a', splitting.url)], transport());
    for (let offset = 0; offset <= bytes.length; offset += 1) {
      const response = asStream(await port.send(call({ stream: true, body: { offset } })));
      const result = await collect(response.events);
      expect(result, `split at ${offset}`).toEqual({ events: sseExpected, error: undefined });
    }
  });

  it('gives the same events when the upstream writes one byte at a time', async () => {
    const bytes = Buffer.from(sseSample, 'utf8');
    const server = await stub(async (_request, response) => {
      sseHeaders(response);
      for (const byte of bytes) {
        response.write(Uint8Array.of(byte));
        await new Promise((resolve) => setImmediate(resolve));
      }
      response.end();
    });
    const port = makePort([upstreamAt('a', server.url)], transport());
    const response = asStream(await port.send(call({ stream: true })));
    expect(response.headers['content-type']).toBe('text/event-stream');
    expect(await collect(response.events)).toEqual({ events: sseExpected, error: undefined });
    expect(server.requests[0]?.headers.accept).toBe('text/event-stream');
  });

  it.each([
    ['without metrics', {}],
    ['with error metrics', { metrics: { upstreamError: () => undefined } }],
  ] as const)(
    'hands out the other events of a network read without a wait (take), %s; next() waits for the next read and reports the end',
    async (_name, overrides) => {
      let second: () => void = () => undefined;
      const secondWrite = new Promise<void>((resolve) => (second = resolve));
      const server = await stub(async (_request, response) => {
        sseHeaders(response);
        response.write('data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4-');
        await secondWrite;
        response.end('part\n\ndata: 5\n\n');
      });
      const port = makePort([upstreamAt('a', server.url)], transport(), overrides);
      const { events } = asStream(await port.send(call({ stream: true })));
      expect(await events.next()).toEqual({ done: false, value: { data: '1' } });
      expect([events.take?.(), events.take?.(), events.take?.()]).toEqual([
        { data: '2' },
        { data: '3' },
        undefined,
      ]);
      const waiting = events.next();
      second();
      expect(await waiting).toEqual({ done: false, value: { data: '4-part' } });
      expect(events.take?.()).toEqual({ data: '5' });
      expect(events.take?.()).toBeUndefined();
      expect(await events.next()).toEqual({ done: true, value: undefined });
      expect(events.take?.()).toBeUndefined();
    },
  );

  it('takes nothing once the consumer has returned the events, and aborts the upstream', async () => {
    const server = await stub(async (_request, response) => {
      sseHeaders(response);
      response.write('data: 1\n\ndata: 2\n\ndata: 3\n\n');
    });
    const port = makePort([upstreamAt('a', server.url)], transport());
    const { events } = asStream(await port.send(call({ stream: true })));
    expect(await events.next()).toEqual({ done: false, value: { data: '1' } });
    await events.return?.();
    expect(events.take?.()).toBeUndefined();
    expect(await events.next()).toEqual({ done: true, value: undefined });
    await closedWithin(server.requests[0]!, 1_000);
  });

  it('answers a stream request that got 2xx JSON or an error status as JSON', async () => {
    const server = await stub((_request, response, _recorded, index) =>
      json(response, index === 0 ? 200 : 400, { index }),
    );
    const port = makePort([upstreamAt('a', server.url)], transport());
    expect(await port.send(call({ stream: true }))).toMatchObject({
      kind: 'json',
      status: 200,
      body: { index: 0 },
    });
    expect(await port.send(call({ stream: true }))).toMatchObject({
      kind: 'json',
      status: 400,
      body: { index: 1 },
    });
  });

  it('times out a non-stream request whose headers never come (504 before any byte), closing the socket', async () => {
    const server = await stub(() => {});
    const port = makePort([upstreamAt('a', server.url)], transport(), {
      timeouts: { headersMs: 200 },
    });
    const started = Date.now();
    const error = await failure(port.send(call()));
    expect(error).toMatchObject({ kind: 'timeout', phase: 'headers' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(Date.now() - started).toBeLessThan(3_000);
    await closedWithin(server.requests[0]!, 2_000);
    expect(server.requests).toHaveLength(1); // a headers timeout is not retried
  });

  it('times out a stream whose upstream sends 200 and SSE headers then nothing, inside send()', async () => {
    const server = await stub((_request, response) => {
      sseHeaders(response);
      response.write(': keepalive\n\n'); // comments are not events: they do not stop the clock
    });
    const port = makePort([upstreamAt('a', server.url)], transport(), {
      timeouts: { firstEventMs: 300 },
    });
    const started = Date.now();
    const error = await failure(port.send(call({ stream: true })));
    expect(error).toMatchObject({ kind: 'timeout', phase: 'headers' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(3_000);
    await closedWithin(server.requests[0]!, 2_000);
  });

  it('times out a stream that goes idle mid-way: iteration throws and the upstream is aborted', async () => {
    const server = await stub(async (_request, response) => {
      sseHeaders(response);
      response.write('data: 1\n\n');
      await sleep(20);
      response.write('data: 2\n\n');
      for (let index = 0; index < 20; index += 1) {
        await sleep(50);
        if (response.destroyed) return;
        response.write(': keepalive\n\n');
      }
    });
    const port = makePort([upstreamAt('a', server.url)], transport(), {
      timeouts: { idleMs: 300 },
    });
    const response = asStream(await port.send(call({ stream: true })));
    const result = await collect(response.events);
    expect(result.events).toEqual([{ data: '1' }, { data: '2' }]);
    expect(result.error).toMatchObject({ kind: 'timeout', phase: 'body' });
    await closedWithin(server.requests[0]!, 2_000);
  });

  it('lets a healthy stream run past the idle limit in total, and stops it at the stream total', async () => {
    const server = await stub(async (_request, response) => {
      sseHeaders(response);
      for (let index = 0; index < 12 && !response.destroyed; index += 1) {
        response.write(`data: ${index}\n\n`);
        await sleep(50);
      }
      response.end();
    });
    const healthy = makePort([upstreamAt('a', server.url)], transport(), {
      timeouts: { idleMs: 250, streamTotalMs: 60_000 },
    });
    const whole = await collect(asStream(await healthy.send(call({ stream: true }))).events);
    expect(whole).toEqual({
      events: Array.from({ length: 12 }, (_, index) => ({ data: String(index) })),
      error: undefined,
    });

    const capped = makePort([upstreamAt('a', server.url)], transport(), {
      timeouts: { idleMs: 250, streamTotalMs: 200 },
    });
    const cut = await collect(asStream(await capped.send(call({ stream: true }))).events);
    expect(cut.events.length).toBeGreaterThan(0);
    expect(cut.events.length).toBeLessThan(12);
    expect(cut.error).toMatchObject({ kind: 'timeout', phase: 'body' });
  });

  it('reports a refused connection as refused/connect without the address in the message', async () => {
    const url = await closedPort();
    const port = makePort([upstreamAt('a', url)], transport(), {
      retries: { attempts: 0, budgetPercent: 20, budgetFloor: 3 },
    });
    const started = Date.now();
    const error = await failure(port.send(call()));
    expect(error).toMatchObject({ kind: 'refused', phase: 'connect', retryable: true });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error.message).not.toContain('127.0.0.1');
    expect(error.message).not.toContain(new URL(url).port);
  });

  it('does not retry after the stream started: a reset after 3 events throws from iteration', async () => {
    const server = await stub(async (request, response) => {
      sseHeaders(response);
      for (let index = 0; index < 3; index += 1) {
        response.write(`data: ${index}\n\n`);
        await sleep(10);
      }
      request.socket.resetAndDestroy();
    });
    const port = makePort([upstreamAt('a', server.url), upstreamAt('b', server.url)], transport());
    const result = await collect(asStream(await port.send(call({ stream: true }))).events);
    expect(result.events).toEqual([{ data: '0' }, { data: '1' }, { data: '2' }]);
    expect(result.error).toMatchObject({ kind: 'reset', phase: 'body' });
    expect(server.requests).toHaveLength(1);
  });

  it('aborts a stream upstream at once when the client goes away', async () => {
    const server = await stub(async (_request, response) => {
      sseHeaders(response);
      response.write('data: first\n\n');
    });
    const client = new AbortController();
    const port = makePort([upstreamAt('a', server.url)], transport());
    const response = asStream(await port.send(call({ stream: true, signal: client.signal })));
    const iterator = response.events[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: { data: 'first' } });
    const pending = iterator.next();
    client.abort();
    const abortedAt = Date.now();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
    const closedAt = await closedWithin(server.requests[0]!, 1_000);
    expect(closedAt - abortedAt).toBeLessThan(1_000);
  });

  it('aborts a non-stream request upstream at once when the client goes away', async () => {
    const server = await stub(() => {});
    const client = new AbortController();
    const port = makePort([upstreamAt('a', server.url)], transport());
    const pending = port.send(call({ signal: client.signal }));
    while (server.requests.length === 0) await sleep(5);
    client.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
    await closedWithin(server.requests[0]!, 1_000);
  });

  it('aborts the upstream when the consumer breaks out of the events', async () => {
    const server = await stub(async (_request, response) => {
      sseHeaders(response);
      response.write('data: first\n\ndata: second\n\n');
    });
    const port = makePort([upstreamAt('a', server.url)], transport());
    const response = asStream(await port.send(call({ stream: true })));
    for await (const event of response.events) {
      expect(event).toEqual({ data: 'first' });
      break;
    }
    await closedWithin(server.requests[0]!, 1_000);
  });

  it('refuses a JSON body over the size cap and aborts the request', async () => {
    const server = await stub(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(`{"data":"${'x'.repeat(4_000)}`);
      await sleep(5_000); // never ends on its own: only the gateway's abort closes it
      response.end('"}');
    });
    const port = makePort([upstreamAt('a', server.url)], transport(), { maxResponseBytes: 1_000 });
    expect(await failure(port.send(call()))).toMatchObject({ kind: 'too_large', phase: 'body' });
    await closedWithin(server.requests[0]!, 1_000);
  });

  it('times out a JSON answer that stops mid-body (phase body), closing the socket; pieces that keep coming are no gap', async () => {
    const server = await stub(async (_request, response, _recorded, index) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"parts":[');
      if (index === 1) return; // the second answer never ends on its own
      for (let index = 0; index < 6; index += 1) {
        await sleep(100);
        response.write(`${index},`);
      }
      response.end('6]}');
    });
    const port = makePort([upstreamAt('a', server.url)], transport(), {
      timeouts: { idleMs: 250 },
    });
    expect(await port.send(call())).toMatchObject({
      kind: 'json',
      status: 200,
      body: { parts: [0, 1, 2, 3, 4, 5, 6] },
    });
    const started = Date.now();
    expect(await failure(port.send(call()))).toMatchObject({ kind: 'timeout', phase: 'body' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    await closedWithin(server.requests[1]!, 2_000);
  });

  it('aborts a JSON answer upstream at once when the client goes away mid-body', async () => {
    const server = await stub(async (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"data":"');
      await sleep(5_000);
      response.end('"}');
    });
    const client = new AbortController();
    const port = makePort([upstreamAt('a', server.url)], transport());
    const pending = port.send(call({ signal: client.signal }));
    while (server.requests.length === 0) await sleep(5);
    await sleep(100);
    client.abort();
    const abortedAt = Date.now();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted', phase: 'body' });
    expect((await closedWithin(server.requests[0]!, 1_000)) - abortedAt).toBeLessThan(1_000);
  });

  it('reports a JSON answer cut mid-body as a reset in the body phase', async () => {
    const server = await stub(async (request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"data":"part');
      await sleep(20);
      request.socket.resetAndDestroy();
    });
    const port = makePort([upstreamAt('a', server.url)], transport());
    expect(await failure(port.send(call()))).toMatchObject({ kind: 'reset', phase: 'body' });
  });

  it('refuses an SSE line that never ends past the event cap', async () => {
    const server = await stub(async (_request, response) => {
      sseHeaders(response);
      response.write('data: ');
      for (let index = 0; index < 100 && !response.destroyed; index += 1) {
        response.write('x'.repeat(1_000));
        await sleep(1);
      }
    });
    const port = makePort([upstreamAt('a', server.url)], transport(), { maxEventBytes: 10_000 });
    expect(await failure(port.send(call({ stream: true })))).toMatchObject({
      kind: 'too_large',
      phase: 'body',
    });
    await closedWithin(server.requests[0]!, 1_000);
  });

  it('applies backpressure: a consumer that stops pulling stops the upstream read (fault-matrix row 21)', async () => {
    const event = `data: ${'x'.repeat(64 * 1024 - 8)}\n\n`;
    let written = 0;
    const server = await stub(async (_request, response) => {
      sseHeaders(response);
      for (let index = 0; index < 512 && !response.destroyed; index += 1) {
        written += event.length;
        if (!response.write(event)) await drainedOrClosed(response);
      }
      response.end();
    });
    const port = makePort([upstreamAt('a', server.url)], transport());
    const response = asStream(await port.send(call({ stream: true })));
    const iterator = response.events[Symbol.asyncIterator]();
    await iterator.next();
    await sleep(500);
    // 32 MiB offered; socket buffers and the transport's high-water mark hold a few MiB at most.
    expect(written).toBeLessThan(16 * 1024 * 1024);
    await iterator.return?.();
    await closedWithin(server.requests[0]!, 1_000);
  });

  it('returns a redirect as a JSON response and never follows it', async () => {
    const canary = await stub((_request, response) => json(response, 200, { followed: true }));
    const server = await stub((_request, response) => {
      response.writeHead(302, {
        location: `${canary.url}/elsewhere`,
        'content-type': 'application/json',
      });
      response.end('{"moved":true}');
    });
    const port = makePort([upstreamAt('a', server.url)], transport());
    const response = await port.send(call());
    expect(response).toMatchObject({ kind: 'json', status: 302, body: { moved: true } });
    await sleep(50);
    expect(canary.connections()).toBe(0);
  });
});
