import { describe, expect, it } from 'vitest';
import { dispatch, fakeGatewayDeps, handlerInput, testKey } from '../../test/fake-gateway-deps.js';
import { chatRoute as route, streamHandler } from '../../test/test-routes.js';
import type { RouteHandler, StreamResult } from '../ports/handler-types.js';
import { bodyText } from './body-text.js';

const authorized = { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' };

const endless = streamHandler(async function* () {
  for (;;) yield { data: 'x' };
});
const jsonHandler: RouteHandler = async () => ({
  kind: 'json',
  status: 200,
  headers: {},
  body: '{}',
  meta: {},
});

describe('dispatch: admission cap (limits.max_concurrent_requests)', () => {
  it('answers 503 with Retry-After past the cap while streams hold their slots, and admits again once one closes', async () => {
    const deps = fakeGatewayDeps({ file: { limits: { max_concurrent_requests: 2 } } });
    const first = (await dispatch(
      route(endless),
      handlerInput({ headers: authorized }),
      deps,
    )) as StreamResult;
    const second = (await dispatch(
      route(endless),
      handlerInput({ headers: authorized }),
      deps,
    )) as StreamResult;
    expect([first.status, second.status]).toEqual([200, 200]);

    const refused = await dispatch(
      route(jsonHandler),
      handlerInput({ headers: authorized, requestId: 'req-over' }),
      deps,
    );
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.kind === 'json' && JSON.parse(bodyText(refused.body)).error.code).toBe(
      'overloaded',
    );

    // Routes without a body (health, catalogue) are never capped.
    const health = await dispatch(
      route(jsonHandler, { method: 'GET', path: '/healthz', auth: false, bodyLimit: 'none' }),
      handlerInput(),
      deps,
    );
    expect(health.status).toBe(200);

    await first.stream.cancel();
    expect(
      (await dispatch(route(jsonHandler), handlerInput({ headers: authorized }), deps)).status,
    ).toBe(200);
    // A JSON answer gives its slot back at once: the next one is admitted too.
    expect(
      (await dispatch(route(jsonHandler), handlerInput({ headers: authorized }), deps)).status,
    ).toBe(200);
    await second.stream.cancel();
  });

  it('gives the slot back when the handler fails', async () => {
    const deps = fakeGatewayDeps({ file: { limits: { max_concurrent_requests: 1 } } });
    const failing: RouteHandler = async () => {
      throw new Error('boom');
    };
    expect(
      (await dispatch(route(failing), handlerInput({ headers: authorized }), deps)).status,
    ).toBe(500);
    expect(
      (await dispatch(route(jsonHandler), handlerInput({ headers: authorized }), deps)).status,
    ).toBe(200);
  });
});
