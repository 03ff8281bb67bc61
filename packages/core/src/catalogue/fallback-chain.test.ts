import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/gateway-error.js';
import { mapUpstreamStatus } from '../errors/map-upstream-status.js';
import { UpstreamError, type UpstreamFailureKind } from '../errors/upstream-error.js';
import type { FallbackReason, VirtualRoute } from './catalogue-types.js';
import { defaultFallbackReasons } from './catalogue-values.js';
import { FallbackChain, fallbackReasonOf } from './fallback-chain.js';

const route = (extra: Partial<VirtualRoute> = {}): VirtualRoute => ({
  models: ['a', 'b', 'c'],
  on: new Set<FallbackReason>(defaultFallbackReasons),
  ...extra,
});
const anyModel = (): boolean => true;
const never = (): number => {
  throw new Error('drew without weights');
};

function upstreamError(kind: UpstreamFailureKind): UpstreamError {
  return new UpstreamError({ kind, phase: 'connect', message: kind });
}

describe('fallbackReasonOf', () => {
  it.each([
    [upstreamError('refused'), 'connection'],
    [upstreamError('reset'), 'connection'],
    [upstreamError('timeout'), 'timeout'],
    [upstreamError('unavailable'), 'unavailable'],
    [mapUpstreamStatus(429, undefined, '3'), 'rate_limited'],
    [mapUpstreamStatus(502, undefined, undefined), 'unavailable'],
    [mapUpstreamStatus(503, undefined, undefined), 'unavailable'],
    [mapUpstreamStatus(504, undefined, undefined), 'unavailable'],
    [mapUpstreamStatus(500, undefined, undefined), 'server_error'],
    [mapUpstreamStatus(408, undefined, undefined), 'timeout'],
    [GatewayError.modelNotConfigured('a'), 'model_not_configured'],
  ] as const)('reads %s as %s', (error, reason) => {
    expect(fallbackReasonOf(error)).toBe(reason);
  });

  it.each([
    ['an upstream 400', mapUpstreamStatus(400, { message: 'bad' }, undefined)],
    ['a client that went away', upstreamError('aborted')],
    ['an unparseable answer', upstreamError('protocol')],
    ['a bug', new TypeError('x is undefined')],
    ['a refused parameter', GatewayError.invalidParameter('top_p', 'too big')],
  ])('never falls back on %s', (_name, error) => {
    expect(fallbackReasonOf(error)).toBeUndefined();
  });
});

describe('FallbackChain', () => {
  it('walks the list in order, only for the reasons of its route, and stops at the last model', () => {
    const chain = FallbackChain.start('v', route(), anyModel, never);
    expect(chain.model).toBe('a');
    expect(chain.skip('server_error')).toBe(false);
    expect(chain.model).toBe('a');
    expect(chain.skip('rate_limited')).toBe(true);
    expect(chain.skip('timeout')).toBe(true);
    expect(chain.model).toBe('c');
    expect(chain.canSkip('timeout')).toBe(false);
    expect(chain.skip('timeout')).toBe(false);
    expect(chain.left).toEqual([
      { model: 'a', reason: 'rate_limited' },
      { model: 'b', reason: 'timeout' },
    ]);
  });

  it('leaves out the models the key may not use, and keeps the first when it may use none', () => {
    const limited = FallbackChain.start('v', route(), (id) => id !== 'b', never);
    expect(limited.skip('rate_limited')).toBe(true);
    expect(limited.model).toBe('c');
    const none = FallbackChain.start('v', route(), () => false, never);
    expect(none.model).toBe('a');
    expect(none.canSkip('rate_limited')).toBe(false);
  });

  it('draws the first model by weight, then follows the list without it', () => {
    const weights = [
      { model: 'a', weight: 90 },
      { model: 'c', weight: 10 },
    ];
    const firsts = [0, 0.5, 0.8999, 0.9, 0.9999].map(
      (draw) => FallbackChain.start('v', route({ weights }), anyModel, () => draw).model,
    );
    expect(firsts).toEqual(['a', 'a', 'a', 'c', 'c']);
    const canary = FallbackChain.start('v', route({ weights }), anyModel, () => 0.95);
    canary.skip('unavailable');
    expect(canary.model).toBe('a');
    canary.skip('unavailable');
    expect(canary.model).toBe('b');
  });

  it('draws only among weighted models the key may use', () => {
    const weights = [
      { model: 'a', weight: 90 },
      { model: 'c', weight: 10 },
    ];
    const chain = FallbackChain.start(
      'v',
      route({ weights }),
      (id) => id !== 'a',
      () => 0.1,
    );
    expect(chain.model).toBe('c');
  });
});
