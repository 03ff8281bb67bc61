import type { UpstreamConfig } from '@infergate/core';
import { describe, expect, it } from 'vitest';
import { EndpointPool } from './endpoint-pool.js';

const upstream = (name: string, models: Record<string, string> = { m: 'm' }): UpstreamConfig => ({
  name,
  url: `http://${name}.invalid`,
  protocol: 'openai',
  models,
});

function poolOf(upstreams: UpstreamConfig[], random: () => number = () => 0) {
  let time = 1_000_000;
  const pool = new EndpointPool(upstreams, { now: () => time, random });
  return { pool, advance: (ms: number) => (time += ms), now: () => time };
}

describe('EndpointPool', () => {
  it('of a random pair, picks the endpoint with fewer requests in flight', () => {
    const { pool } = poolOf([upstream('a'), upstream('b')]);
    const [a, b] = pool.endpointsOf('m');
    if (a === undefined || b === undefined) throw new Error('two endpoints expected');
    a.inFlight = 3;
    expect(pool.pick('m')?.upstream.name).toBe('b');
    b.inFlight = 4;
    expect(pool.pick('m')?.upstream.name).toBe('a');
  });

  it('always draws two different endpoints', () => {
    // random() = 0.99 would pick the last index twice if the second draw were not over the others.
    const { pool } = poolOf([upstream('a'), upstream('b'), upstream('c')], () => 0.99);
    const endpoints = pool.endpointsOf('m');
    const c = endpoints[2];
    if (c === undefined) throw new Error('three endpoints expected');
    c.inFlight = 1;
    expect(pool.pick('m')?.upstream.name).toBe('b');
  });

  it('avoids endpoints already tried while another is available, and falls back to them otherwise', () => {
    const { pool } = poolOf([upstream('a'), upstream('b')]);
    const [a] = pool.endpointsOf('m');
    expect(pool.pick('m', new Set([a!]))?.upstream.name).toBe('b');
    const single = poolOf([upstream('a')]).pool;
    expect(single.pick('m', new Set(single.endpointsOf('m')))?.upstream.name).toBe('a');
  });

  it('ejects after 5 consecutive failures for 30 s, probes back, and ejects a failing probe for 60 s', () => {
    const { pool, advance } = poolOf([upstream('a'), upstream('b')]);
    const a = pool.endpointsOf('m')[0]!;
    for (let index = 0; index < 4; index += 1) pool.recordFailure(a, false);
    expect(pool.isAvailable(a)).toBe(true);
    pool.recordFailure(a, false);
    expect(pool.isAvailable(a)).toBe(false);
    advance(29_999);
    expect(pool.isAvailable(a)).toBe(false);
    advance(1);
    expect(pool.isAvailable(a)).toBe(true);
    pool.recordFailure(a, false); // the probe fails: out again at once, for 2 x 30 s
    expect(pool.isAvailable(a)).toBe(false);
    advance(59_999);
    expect(pool.isAvailable(a)).toBe(false);
    advance(1);
    pool.recordSuccess(a); // the probe succeeds: healthy, the multiplier starts over
    for (let index = 0; index < 5; index += 1) pool.recordFailure(a, false);
    expect(a.ejectedUntil - 1_000_000 - 90_000).toBe(30_000);
  });

  it('caps the ejection at 300 s', () => {
    const { pool, advance, now } = poolOf([upstream('a'), upstream('b')]);
    const a = pool.endpointsOf('m')[0]!;
    for (let index = 0; index < 5; index += 1) pool.recordFailure(a, true);
    for (let round = 0; round < 15; round += 1) {
      advance(a.ejectedUntil - now()); // the ejection ends, the probe fails
      pool.recordFailure(a, true);
    }
    expect(a.ejections).toBe(16);
    expect(a.ejectedUntil - now()).toBe(300_000);
  });

  it('never ejects the last available endpoint of a model, including one it shares with another model', () => {
    const { pool } = poolOf([upstream('a', { m: 'm', n: 'n' }), upstream('b', { m: 'm' })]);
    const a = pool.endpointsOf('n')[0]!;
    for (let index = 0; index < 20; index += 1) pool.recordFailure(a, false);
    expect(pool.isAvailable(a)).toBe(true); // the only endpoint of n
    expect(pool.pick('n')?.upstream.name).toBe('a');
  });

  it('reports an endpoint unreachable after a connect failure, up again after the base ejection period or a success', () => {
    const { pool, advance } = poolOf([upstream('a')]);
    const a = pool.endpointsOf('m')[0]!;
    const state = () => pool.health()[0]?.state;
    expect(pool.health()).toEqual([
      {
        upstream: 'a',
        state: 'up',
        models: ['m'],
        inFlight: 0,
        consecutiveFailures: 0,
        ejectedForMs: 0,
      },
    ]);
    pool.recordFailure(a, true);
    expect(state()).toBe('unreachable');
    expect(pool.health()[0]?.consecutiveFailures).toBe(1);
    advance(30_000); // an old connect failure no longer counts
    expect(state()).toBe('up');
    pool.recordFailure(a, true);
    pool.recordSuccess(a);
    expect(state()).toBe('up');
    pool.recordFailure(a, false); // a 5xx says the server is reachable
    expect(state()).toBe('up');
  });

  it('reports an ejected endpoint with the time left out of rotation', () => {
    const { pool, advance } = poolOf([upstream('a'), upstream('b')]);
    const a = pool.endpointsOf('m')[0]!;
    for (let index = 0; index < 5; index += 1) pool.recordFailure(a, true);
    expect(pool.health().map((entry) => [entry.upstream, entry.state, entry.ejectedForMs])).toEqual(
      [
        ['a', 'ejected', 30_000],
        ['b', 'up', 0],
      ],
    );
    advance(10_000);
    expect(pool.health()[0]?.ejectedForMs).toBe(20_000);
  });
});
