import { describe, expect, it } from 'vitest';
import { dispatch, fakeGatewayDeps, handlerInput, testKey } from '../../test/fake-gateway-deps.js';
import { chatRoute as route, failingEvents, streamHandler } from '../../test/test-routes.js';
import type { RequestObservation } from '../ports/ports.js';
import { scriptedReads } from '../handlers/text-test-ports.js';
import type { RouteHandler, StreamResult } from '../ports/handler-types.js';

const headers = { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' };

/** A sink counting what a finaliser tells it, and a gateway capped at one request. */
function observed() {
  const observations: RequestObservation[] = [];
  const streams = { started: 0, ended: 0 };
  const deps = fakeGatewayDeps({
    file: { limits: { max_concurrent_requests: 1 } },
    metrics: {
      record: () => undefined,
      observe: (observation) => void observations.push(observation),
      streamStarted: () => void (streams.started += 1),
      streamEnded: () => void (streams.ended += 1),
    },
  });
  return { deps, observations, streams };
}

/** A stream whose second read waits until released: the client can cancel while a read is pending. */
function waitingStream(): { handler: RouteHandler; release: () => void } {
  let release: () => void = () => undefined;
  const handler = streamHandler(async function* () {
    yield { data: '{}' };
    await new Promise<void>((resolve) => (release = resolve));
    yield { data: '{}' };
  });
  return { handler, release: () => release() };
}

describe('the request finaliser', () => {
  it('ends a stream cancelled during a pending read once, as 499, and frees its slot', async () => {
    const { deps, observations, streams } = observed();
    const { handler, release } = waitingStream();
    const result = (await dispatch(
      route(handler),
      handlerInput({ headers, body: '{}' }),
      deps,
    )) as StreamResult;
    const reader = result.stream.getReader();
    await reader.read();
    const pending = reader.read();
    await reader.cancel();
    release();
    await pending;
    expect(observations.map((observation) => observation.status)).toEqual([499]);
    expect(streams).toEqual({ started: 1, ended: 1 });
    expect(deps.gateway.admission.inUse).toBe(0);
  });

  it('ends a stream read to the end once, with its status', async () => {
    const { deps, observations, streams } = observed();
    const twoEvents = streamHandler(async function* () {
      yield* [{ data: '{}' }, { data: '{}' }];
    });
    const result = (await dispatch(
      route(twoEvents),
      handlerInput({ headers, body: '{}' }),
      deps,
    )) as StreamResult;
    expect(await new Response(result.stream).text()).toBe('data: {}\n\ndata: {}\n\n');
    expect(observations).toHaveLength(1);
    expect(observations[0]).toMatchObject({
      status: 200,
      streamed: true,
      operationId: 'createChatCompletion',
    });
    expect(streams).toEqual({ started: 1, ended: 1 });
    expect(deps.gateway.admission.inUse).toBe(0);
  });

  it('ends a failing stream once and passes the failure on', async () => {
    const { deps, observations, streams } = observed();
    const failing = streamHandler(() => failingEvents('reset'));
    const result = (await dispatch(
      route(failing),
      handlerInput({ headers, body: '{}' }),
      deps,
    )) as StreamResult;
    const reader = result.stream.getReader();
    await expect(reader.read()).rejects.toThrow('reset');
    await reader.cancel().catch(() => undefined);
    expect(observations).toHaveLength(1);
    expect(streams).toEqual({ started: 1, ended: 1 });
    expect(deps.gateway.admission.inUse).toBe(0);
  });
});

describe('the request finaliser tells an app when a stream is over', () => {
  it('calls onEnd once with the status, the meta final by then', async () => {
    const { deps } = observed();
    const twoEvents = streamHandler(async function* () {
      yield* [{ data: '{}' }, { data: '{}' }];
    });
    const result = (await dispatch(
      route(twoEvents),
      handlerInput({ headers, body: '{}' }),
      deps,
    )) as StreamResult;
    const ends: number[] = [];
    result.body.onEnd((status) => ends.push(status));
    expect(ends).toEqual([]);
    await new Response(result.stream).text();
    expect(ends).toEqual([200]);
    // Registered after the end: told at once.
    result.body.onEnd((status) => ends.push(status));
    expect(ends).toEqual([200, 200]);
  });

  it('calls onEnd with 499 when the client cancels', async () => {
    const { deps } = observed();
    const { handler, release } = waitingStream();
    const result = (await dispatch(
      route(handler),
      handlerInput({ headers, body: '{}' }),
      deps,
    )) as StreamResult;
    const ends: number[] = [];
    result.body.onEnd((status) => ends.push(status));
    const reader = result.stream.getReader();
    await reader.read();
    await reader.cancel();
    release();
    expect(ends).toEqual([499]);
  });
});

describe('the request finaliser: pulling and keep-alive comments', () => {
  /** A handler of `total` events counting how far it was read; its next() waits while `gate` is set. */
  function countingHandler(total: number) {
    const state = {
      pulled: 0,
      returned: false,
      cancelHooks: 0,
      gate: undefined as Promise<void> | undefined,
    };
    const handler = streamHandler(
      async function* () {
        try {
          while (state.pulled < total) {
            if (state.gate !== undefined) await state.gate;
            state.pulled += 1;
            yield { data: String(state.pulled) };
          }
        } finally {
          state.returned = true;
        }
      },
      { onCancel: () => void (state.cancelHooks += 1) },
    );
    return { handler, state };
  }

  function streamWith(handler: RouteHandler, keepaliveMs: number) {
    const deps = fakeGatewayDeps({ file: { timeouts: { keepalive_ms: keepaliveMs } } });
    return dispatch(
      route(handler),
      handlerInput({ headers, body: '{}' }),
      deps,
    ) as Promise<StreamResult>;
  }

  it('reads one event per client read, never ahead of the client', async () => {
    const { handler, state } = countingHandler(100);
    const reader = (await streamWith(handler, 60_000)).stream.getReader();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(state.pulled).toBe(0);
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: 1\n\n');
    await reader.read();
    expect(state.pulled).toBe(2);
    await reader.cancel();
  });

  it('on cancel, calls the handler hook at once and ends its events (which aborts the upstream)', async () => {
    const { handler, state } = countingHandler(100);
    const reader = (await streamWith(handler, 60_000)).stream.getReader();
    await reader.read();
    await reader.cancel();
    expect(state.cancelHooks).toBe(1);
    expect(state.returned).toBe(true);
  });

  it('sends `: keepalive` while the next event is not ready, and none once it is', async () => {
    const { handler, state } = countingHandler(1);
    let open: () => void = () => undefined;
    state.gate = new Promise<void>((resolve) => (open = resolve));
    const reader = (await streamWith(handler, 20)).stream.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe(': keepalive\n\n');
    expect(decoder.decode((await reader.read()).value)).toBe(': keepalive\n\n');
    open();
    let rest = '';
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      rest += decoder.decode(chunk.value);
    }
    expect(rest.replaceAll(': keepalive\n\n', '')).toBe('data: 1\n\n');
  });

  it('stops sending comments once the client cancels', async () => {
    const { handler, state } = countingHandler(1);
    let open: () => void = () => undefined;
    state.gate = new Promise<void>((resolve) => (open = resolve));
    const reader = (await streamWith(handler, 5)).stream.getReader();
    expect((await reader.read()).value?.byteLength).toBeGreaterThan(0);
    await reader.cancel();
    // A timer left running would enqueue into a cancelled stream and throw from a timer.
    await new Promise((resolve) => setTimeout(resolve, 30));
    open();
  });
});

describe('the request finaliser read directly (StreamBody, as node-server reads it)', () => {
  async function readAll(result: StreamResult): Promise<string> {
    const decoder = new TextDecoder();
    let text = '';
    for (
      let chunk = await result.body.read();
      chunk !== undefined;
      chunk = await result.body.read()
    )
      text += decoder.decode(chunk);
    return text;
  }

  it('gives the same bytes as the Web stream and ends the request once', async () => {
    const { deps, observations, streams } = observed();
    const twoEvents = streamHandler(async function* () {
      yield* [{ data: '{"a":1}' }, { event: 'done', data: '[DONE]' }];
    });
    const result = (await dispatch(
      route(twoEvents),
      handlerInput({ headers, body: '{}' }),
      deps,
    )) as StreamResult;
    expect(await readAll(result)).toBe('data: {"a":1}\n\nevent: done\ndata: [DONE]\n\n');
    expect(await result.body.read()).toBeUndefined();
    expect(observations.map((observation) => observation.status)).toEqual([200]);
    expect(streams).toEqual({ started: 1, ended: 1 });
    expect(deps.gateway.admission.inUse).toBe(0);
  });

  it('rejects a read when the stream fails, and ends the request once', async () => {
    const { deps, observations } = observed();
    const result = (await dispatch(
      route(streamHandler(() => failingEvents('reset'))),
      handlerInput({ headers, body: '{}' }),
      deps,
    )) as StreamResult;
    await expect(result.body.read()).rejects.toThrow('reset');
    expect(await result.body.read()).toBeUndefined();
    expect(observations).toHaveLength(1);
    expect(deps.gateway.admission.inUse).toBe(0);
  });

  it('ends a read pending when the client cancels as undefined, the request as 499', async () => {
    const { deps, observations, streams } = observed();
    const { handler, release } = waitingStream();
    const result = (await dispatch(
      route(handler),
      handlerInput({ headers, body: '{}' }),
      deps,
    )) as StreamResult;
    expect(await result.body.read()).toBeDefined();
    const pending = result.body.read();
    await result.body.cancel();
    release();
    expect(await pending).toBeUndefined();
    expect(observations.map((observation) => observation.status)).toEqual([499]);
    expect(streams).toEqual({ started: 1, ended: 1 });
  });

  it('hands keep-alive comments to its sink while a read waits, and none after the stream ends', async () => {
    const deps = fakeGatewayDeps({ file: { timeouts: { keepalive_ms: 10 } } });
    const { handler, release } = waitingStream();
    const result = (await dispatch(
      route(handler),
      handlerInput({ headers, body: '{}' }),
      deps,
    )) as StreamResult;
    const comments: string[] = [];
    result.body.onKeepalive((chunk) => comments.push(new TextDecoder().decode(chunk)));
    await result.body.read();
    const pending = result.body.read();
    await new Promise((resolve) => setTimeout(resolve, 35));
    expect(comments.length).toBeGreaterThanOrEqual(2);
    expect(new Set(comments)).toEqual(new Set([': keepalive\n\n']));
    release();
    expect(new TextDecoder().decode(await pending)).toBe('data: {}\n\n');
    expect(await result.body.read()).toBeUndefined();
    const after = comments.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(comments).toHaveLength(after);
  });

  it('takes every event that is ready after a wait and sends them as one chunk, in order', async () => {
    const { deps, observations } = observed();
    const reads = [
      [{ data: '{"n":1}' }, { event: 'e', data: 'two\nlines' }, { data: 'é' }],
      [{ data: '[DONE]' }],
    ];
    const upstream = scriptedReads(reads);
    const result = (await dispatch(
      route(streamHandler(() => upstream)),
      handlerInput({ headers, body: '{}' }),
      deps,
    )) as StreamResult;
    const decoder = new TextDecoder();
    expect(decoder.decode(await result.body.read())).toBe(
      'data: {"n":1}\n\nevent: e\ndata: two\ndata: lines\n\ndata: é\n\n',
    );
    expect(decoder.decode(await result.body.read())).toBe('data: [DONE]\n\n');
    expect(await result.body.read()).toBeUndefined();
    expect(upstream.taken).toBe(2);
    expect(observations.map((observation) => observation.status)).toEqual([200]);
  });

  it('gives a Web stream reader the events of one read as one chunk too', async () => {
    const { deps } = observed();
    const upstream = scriptedReads([[{ data: 'a' }, { data: 'b' }], [{ data: 'c' }]]);
    const result = (await dispatch(
      route(streamHandler(() => upstream)),
      handlerInput({ headers, body: '{}' }),
      deps,
    )) as StreamResult;
    const reader = result.stream.getReader();
    const chunks: string[] = [];
    for (let chunk = await reader.read(); chunk.done !== true; chunk = await reader.read())
      chunks.push(new TextDecoder().decode(chunk.value));
    expect(chunks).toEqual(['data: a\n\ndata: b\n\n', 'data: c\n\n']);
  });
});
