import { describe, expect, it } from 'vitest';
import { fakeGatewayDeps, handlerInput } from '../../test/fake-gateway-deps.js';
import type { UpstreamHealth } from '../ports/ports.js';
import { healthzHandler, readyzHandler } from './health-handlers.js';
import { bodyText } from '../http/body-text.js';

type HandlerResult = Awaited<ReturnType<typeof healthzHandler>>;

function statusAndBody(result: HandlerResult): [number, unknown] {
  if (result.kind !== 'json') throw new Error('expected JSON');
  expect(result.headers['cache-control']).toBe('no-store');
  return [result.status, JSON.parse(bodyText(result.body))];
}

const deadUpstream: UpstreamHealth = {
  upstream: 'dead',
  state: 'unreachable',
  models: ['gamma-m3'],
  inFlight: 0,
  consecutiveFailures: 3,
  ejectedForMs: 0,
};

function gatewayContext(options: { file?: unknown; health?: readonly UpstreamHealth[] } = {}) {
  const deps = fakeGatewayDeps({
    file: options.file,
    upstream: { health: () => options.health ?? [] },
  });
  return { context: { ...deps, identity: undefined }, gateway: deps.gateway };
}

async function readyz(context: ReturnType<typeof gatewayContext>['context']) {
  return statusAndBody(await readyzHandler(handlerInput(), context));
}

describe('health checks', () => {
  it('/healthz is 200 {status: ok} even while draining', async () => {
    const { context, gateway } = gatewayContext();
    gateway.drain();
    expect(statusAndBody(await healthzHandler(handlerInput(), context))).toEqual([
      200,
      { status: 'ok' },
    ]);
  });

  it('/readyz is 200 while model servers fail: their health is not this replica`s readiness', async () => {
    const ejected: UpstreamHealth = {
      ...deadUpstream,
      upstream: 'gone',
      state: 'ejected',
      ejectedForMs: 30_000,
    };
    const { context } = gatewayContext({ health: [deadUpstream, ejected] });
    expect(await readyz(context)).toEqual([200, { status: 'ready' }]);
  });

  it('/readyz is 503 draining from the moment the app drains', async () => {
    const { context, gateway } = gatewayContext();
    expect(await readyz(context)).toEqual([200, { status: 'ready' }]);
    gateway.drain();
    expect(await readyz(context)).toEqual([503, { status: 'not_ready', reason: 'draining' }]);
  });

  it('/readyz is 503 saturated while limits.max_concurrent_requests requests hold a slot, 200 once one ends', async () => {
    const { context, gateway } = gatewayContext({
      file: { limits: { max_concurrent_requests: 2 } },
    });
    expect(gateway.admission.tryAcquire()).toBe(true);
    expect(await readyz(context)).toEqual([200, { status: 'ready' }]);
    expect(gateway.admission.tryAcquire()).toBe(true);
    expect(await readyz(context)).toEqual([503, { status: 'not_ready', reason: 'saturated' }]);
    gateway.admission.release();
    expect(await readyz(context)).toEqual([200, { status: 'ready' }]);
  });

  it('/readyz is never saturated without a cap (max_concurrent_requests 0)', async () => {
    const { context, gateway } = gatewayContext();
    for (let index = 0; index < 1000; index += 1) gateway.admission.tryAcquire();
    expect(await readyz(context)).toEqual([200, { status: 'ready' }]);
  });
});
