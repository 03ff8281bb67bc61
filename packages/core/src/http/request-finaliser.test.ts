import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dispatch, fakeGatewayDeps, handlerInput, testKey } from '../../test/fake-gateway-deps.js';
import type { RequestObservation } from '../handlers/ports.js';
import type { RouteDefinition, RouteHandler, StreamResult } from './handler-types.js';

const headers = { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' };
const encoder = new TextEncoder();

function route(handler: RouteHandler): RouteDefinition {
  return {
    method: 'POST',
    path: '/v1/chat/completions',
    operationId: 'createChatCompletion',
    auth: true,
    bodyLimit: 'image',
    envelope: 'native',
    contract: { answers: 'json', response: z.unknown(), endpoint: 'chat' },
    handler,
  };
}

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
  let sent = 0;
  const handler: RouteHandler = async () => ({
    kind: 'stream',
    status: 200,
    headers: {},
    meta: {},
    stream: new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          sent += 1;
          if (sent > 1) await new Promise<void>((resolve) => (release = resolve));
          if (sent > 2) controller.close();
          else controller.enqueue(encoder.encode('data: {}\n\n'));
        },
      },
      { highWaterMark: 0 },
    ),
  });
  return { handler, release: () => release() };
}

describe('the request finaliser', () => {
  it('ends a stream cancelled during a pending read once, as 499, and frees its slot', async () => {
    const { deps, observations, streams } = observed();
    const { handler, release } = waitingStream();
    const result = (await dispatch(route(handler), handlerInput({ headers, body: '{}' }), deps)) as StreamResult;
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
    const events = ['data: {}\n\n', 'data: {}\n\n'];
    const twoEvents: RouteHandler = async () => ({
      kind: 'stream',
      status: 200,
      headers: {},
      meta: {},
      stream: new ReadableStream<Uint8Array>(
        { pull: (controller) => (events.length === 0 ? controller.close() : controller.enqueue(encoder.encode(events.shift() as string))) },
        { highWaterMark: 0 },
      ),
    });
    const result = (await dispatch(route(twoEvents), handlerInput({ headers, body: '{}' }), deps)) as StreamResult;
    expect(await new Response(result.stream).text()).toBe('data: {}\n\ndata: {}\n\n');
    expect(observations).toHaveLength(1);
    expect(observations[0]).toMatchObject({ status: 200, streamed: true, operationId: 'createChatCompletion' });
    expect(streams).toEqual({ started: 1, ended: 1 });
    expect(deps.gateway.admission.inUse).toBe(0);
  });

  it('ends a failing stream once and passes the failure on', async () => {
    const { deps, observations, streams } = observed();
    const failing: RouteHandler = async () => ({
      kind: 'stream',
      status: 200,
      headers: {},
      meta: {},
      stream: new ReadableStream<Uint8Array>({ pull: (controller) => controller.error(new Error('reset')) }),
    });
    const result = (await dispatch(route(failing), handlerInput({ headers, body: '{}' }), deps)) as StreamResult;
    const reader = result.stream.getReader();
    await expect(reader.read()).rejects.toThrow('reset');
    await reader.cancel().catch(() => undefined);
    expect(observations).toHaveLength(1);
    expect(streams).toEqual({ started: 1, ended: 1 });
    expect(deps.gateway.admission.inUse).toBe(0);
  });
});
