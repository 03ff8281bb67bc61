import { describe, expect, it } from 'vitest';
import { fakeGatewayDeps, handlerInput } from '../../test/fake-gateway-deps.js';
import type { UpstreamPort } from './ports.js';
import { healthzHandler, readyzHandler } from './health-handlers.js';
import { bodyText } from '../http/body-text.js';

type HandlerResult = Awaited<ReturnType<typeof healthzHandler>>;

function statusAndBody(result: HandlerResult): [number, unknown] {
  if (result.kind !== 'json') throw new Error('expected JSON');
  expect(result.headers['cache-control']).toBe('no-store');
  return [result.status, JSON.parse(bodyText(result.body))];
}

function context(ready: UpstreamPort['ready']) {
  return { ...fakeGatewayDeps({ upstream: { ready } }), identity: undefined };
}

describe('health checks', () => {
  it('/healthz is 200 {status: ok} even when upstreams are down', async () => {
    expect(
      statusAndBody(
        await healthzHandler(
          handlerInput(),
          context(async () => false),
        ),
      ),
    ).toEqual([200, { status: 'ok' }]);
  });

  it('/readyz is 200 when the upstreams are ready', async () => {
    expect(
      statusAndBody(
        await readyzHandler(
          handlerInput(),
          context(async () => true),
        ),
      ),
    ).toEqual([200, { status: 'ready' }]);
  });

  it('/readyz is 503 when they are not, or when the check fails', async () => {
    expect(
      statusAndBody(
        await readyzHandler(
          handlerInput(),
          context(async () => false),
        ),
      ),
    ).toEqual([503, { status: 'not_ready' }]);
    expect(
      statusAndBody(
        await readyzHandler(
          handlerInput(),
          context(() => Promise.reject(new Error('probe failed'))),
        ),
      ),
    ).toEqual([503, { status: 'not_ready' }]);
  });

  it('/readyz is 503 while the app drains, even with ready upstreams; /healthz stays 200', async () => {
    let draining = false;
    const drainingContext = { ...context(async () => true), draining: () => draining };
    expect(statusAndBody(await readyzHandler(handlerInput(), drainingContext))[0]).toBe(200);
    draining = true;
    expect(statusAndBody(await readyzHandler(handlerInput(), drainingContext))).toEqual([503, { status: 'not_ready' }]);
    expect(statusAndBody(await healthzHandler(handlerInput(), drainingContext))).toEqual([200, { status: 'ok' }]);
  });
});
