import { isUpstreamError } from '@infergate/core';
import type { UpstreamError } from '@infergate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createUpstreamPort } from '../src/create-upstream-port.js';
import { createUndiciTransport } from '../src/undici-transport.js';
import { call, makePort, upstreamAt, wideTimeouts } from './helpers/make-port.js';
import { closedPort, json, sleep, sseHeaders, startStub } from './helpers/stub-upstream.js';
import type { StubHandler, StubUpstream } from './helpers/stub-upstream.js';

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    if (isUpstreamError(error)) return error;
    throw error;
  }
  throw new Error('expected an UpstreamError');
}

// random() = 0 makes the first of two equally loaded endpoints win, so tests know where a request goes.
const firstFirst = () => 0;

describe('port policy over loopback (undici)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  const stub = async (handler: StubHandler): Promise<StubUpstream> => {
    const server = await startStub(handler);
    cleanups.push(() => server.close());
    return server;
  };
  const transport = () => {
    const made = createUndiciTransport();
    cleanups.push(() => made.close());
    return made;
  };
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('retries a 503 once, on the other endpoint', async () => {
    const a = await stub((_request, response) =>
      json(response, 503, { error: { message: 'busy' } }),
    );
    const b = await stub((_request, response) => json(response, 200, { ok: 'b' }));
    const port = makePort([upstreamAt('a', a.url), upstreamAt('b', b.url)], transport(), {
      random: firstFirst,
    });
    expect(await port.send(call())).toMatchObject({
      kind: 'json',
      status: 200,
      body: { ok: 'b' },
      endpoint: 'b',
    });
    expect([a.requests.length, b.requests.length]).toEqual([1, 1]);
  });

  it('retries at most `attempts` times and then returns the last 502', async () => {
    const a = await stub((_request, response) =>
      json(response, 502, { error: { message: 'bad gateway' } }),
    );
    const port = makePort([upstreamAt('a', a.url)], transport());
    expect(await port.send(call())).toMatchObject({
      kind: 'json',
      status: 502,
      body: { error: { message: 'bad gateway' } },
    });
    expect(a.requests).toHaveLength(2);
  });

  it.each([400, 404, 429, 500, 504])('does not retry a %i', async (status) => {
    const a = await stub((_request, response) =>
      json(response, status, { error: { message: 'no' } }),
    );
    const b = await stub((_request, response) => json(response, 200, { ok: 'b' }));
    const port = makePort([upstreamAt('a', a.url), upstreamAt('b', b.url)], transport(), {
      random: firstFirst,
    });
    expect(await port.send(call())).toMatchObject({ kind: 'json', status });
    expect([a.requests.length, b.requests.length]).toEqual([1, 0]);
  });

  it('retries a refused connection on the other endpoint', async () => {
    const dead = await closedPort();
    const b = await stub((_request, response) => json(response, 200, { ok: 'b' }));
    const port = makePort([upstreamAt('a', dead), upstreamAt('b', b.url)], transport(), {
      random: firstFirst,
    });
    expect(await port.send(call())).toMatchObject({ status: 200, endpoint: 'b' });
  });

  it('reports the attempts and the upstream of the answer, and of a failure, with metrics labelled by upstream and model', async () => {
    const a = await stub((_request, response) =>
      json(response, 502, { error: { message: 'bad gateway' } }),
    );
    const retried = makePort([upstreamAt('a', a.url)], transport());
    // A pool of one endpoint retries that endpoint: two attempts, one upstream.
    expect(await retried.send(call())).toMatchObject({ status: 502, endpoint: 'a', attempts: 2 });

    const errors: Array<{ kind: string; where: unknown }> = [];
    const metrics = {
      upstreamError: (kind: string, where?: unknown) => void errors.push({ kind, where }),
    };
    const dead = [await closedPort(), await closedPort()];
    const refused = makePort(
      [upstreamAt('a', dead[0] as string), upstreamAt('b', dead[1] as string)],
      transport(),
      { random: firstFirst, metrics },
    );
    const error = await failure(refused.send(call()));
    expect(error).toMatchObject({ kind: 'refused', upstream: 'b', attempts: 2 });
    expect(errors.map((entry) => entry.where)).toEqual([
      { upstream: 'a', model: call().modelId },
      { upstream: 'b', model: call().modelId },
    ]);
  });

  it('retries a reset before the response started', async () => {
    const a = await stub((request, response, _recorded, index) => {
      if (index === 0) request.socket.resetAndDestroy();
      else json(response, 200, { attempt: index });
    });
    const port = makePort([upstreamAt('a', a.url)], transport());
    expect(await port.send(call())).toMatchObject({ status: 200, body: { attempt: 1 } });
    expect(a.requests).toHaveLength(2);
  });

  it('does not retry when attempts is 0', async () => {
    const a = await stub((_request, response) => json(response, 503, {}));
    const port = makePort([upstreamAt('a', a.url)], transport(), {
      retries: { attempts: 0, budgetPercent: 20, budgetFloor: 3 },
    });
    expect(await port.send(call())).toMatchObject({ status: 503 });
    expect(a.requests).toHaveLength(1);
  });

  it('keeps concurrent retries within the budget (floor 1, 0 %)', async () => {
    const a = await stub(async (_request, response) => {
      await sleep(100);
      json(response, 503, {});
    });
    const port = makePort([upstreamAt('a', a.url)], transport(), {
      retries: { attempts: 1, budgetPercent: 0, budgetFloor: 1 },
    });
    const results = await Promise.all(Array.from({ length: 4 }, () => port.send(call())));
    expect(results.every((result) => result.status === 503)).toBe(true);
    // Four first tries finish together; only one retry slot exists while the others are decided.
    expect(a.requests.length).toBeGreaterThanOrEqual(5);
    expect(a.requests.length).toBeLessThan(8);
  });

  it('ejects an endpoint after 5 consecutive 5xx, probes it back after 30 s, and resets on success', async () => {
    let time = 5_000_000;
    let aStatus = 500;
    const a = await stub((_request, response) => json(response, aStatus, {}));
    const b = await stub((_request, response) => json(response, 200, {}));
    const port = makePort([upstreamAt('a', a.url), upstreamAt('b', b.url)], transport(), {
      random: firstFirst,
      now: () => time,
    });
    const sendTo = async () => (await port.send(call())) as { endpoint: string };
    for (let index = 0; index < 5; index += 1) expect((await sendTo()).endpoint).toBe('a');
    for (let index = 0; index < 3; index += 1) expect((await sendTo()).endpoint).toBe('b');
    time += 30_000;
    expect((await sendTo()).endpoint).toBe('a'); // the probe; it fails: out again, now for 60 s
    time += 30_000;
    expect((await sendTo()).endpoint).toBe('b');
    time += 30_000;
    aStatus = 200;
    expect((await sendTo()).endpoint).toBe('a'); // probe succeeds
    expect((await sendTo()).endpoint).toBe('a');
    expect(a.requests).toHaveLength(8);
  });

  it('never ejects the last endpoint of a model', async () => {
    const a = await stub((_request, response) => json(response, 500, {}));
    const port = makePort([upstreamAt('a', a.url)], transport());
    for (let index = 0; index < 8; index += 1)
      expect(await port.send(call())).toMatchObject({ status: 500 });
    expect(a.requests).toHaveLength(8);
  });

  it('spreads held streams evenly over two endpoints by least outstanding requests', async () => {
    const hold: StubHandler = (_request, response) => {
      sseHeaders(response);
      response.write('data: hello\n\n');
    };
    const a = await stub(hold);
    const b = await stub(hold);
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const port = makePort([upstreamAt('a', a.url), upstreamAt('b', b.url)], transport(), {
      random,
    });
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => port.send(call({ stream: true }))),
    );
    expect([a.requests.length, b.requests.length]).toEqual([5, 5]);
    const later = await Promise.all(
      Array.from({ length: 4 }, () => port.send(call({ stream: true }))),
    );
    expect([a.requests.length, b.requests.length]).toEqual([7, 7]);
    for (const response of [...responses, ...later])
      if (response.kind === 'stream') await response.events.return?.();
  });

  it('counts a finished stream out of its endpoint, so the next request goes to the idle one', async () => {
    const a = await stub(async (_request, response) => {
      sseHeaders(response);
      response.end('data: done\n\n');
    });
    const b = await stub(async (_request, response) => {
      sseHeaders(response);
      response.end('data: done\n\n');
    });
    const port = makePort([upstreamAt('a', a.url), upstreamAt('b', b.url)], transport(), {
      random: firstFirst,
    });
    for (let index = 0; index < 3; index += 1) {
      const response = await port.send(call({ stream: true }));
      if (response.kind === 'stream') for await (const _event of response.events) void _event;
    }
    expect([a.requests.length, b.requests.length]).toEqual([3, 0]);
  });

  it('reports an endpoint that refuses connections as unreachable, beside one that answers', async () => {
    const dead = await closedPort();
    const live = await stub((_request, response) => json(response, 200, { ok: 'b' }));
    const port = makePort(
      [upstreamAt('a', dead), upstreamAt('b', live.url, { models: { n: 'served-n' } })],
      transport(),
    );
    const states = () => port.health?.().map((entry) => `${entry.upstream}:${entry.state}`);
    expect(states()).toEqual(['a:up', 'b:up']);
    expect(await failure(port.send(call()))).toMatchObject({ kind: 'refused' });
    await port.send(call({ modelId: 'n' }));
    expect(states()).toEqual(['a:unreachable', 'b:up']);
  });

  it('answers unavailable for a model no upstream serves, and maps targets', async () => {
    const port = makePort(
      [upstreamAt('a', 'http://127.0.0.1:9', { protocol: 'tei', models: { e: 'served-e' } })],
      transport(),
    );
    expect(port.target('e')).toEqual({ protocol: 'tei', model: 'served-e' });
    expect(port.target('m')).toBeUndefined();
    expect(await failure(port.send(call({ modelId: 'm' })))).toMatchObject({ kind: 'unavailable' });
  });

  it('refuses a configuration where one model is served with two protocols', () => {
    expect(() =>
      createUpstreamPort({
        upstreams: [
          upstreamAt('a', 'http://127.0.0.1:9'),
          upstreamAt('b', 'http://127.0.0.1:9', { protocol: 'tei' }),
        ],
        timeouts: wideTimeouts,
        retries: { attempts: 1, budgetPercent: 20, budgetFloor: 3 },
        transportFor: () => createUndiciTransport(),
      }),
    ).toThrow(/protocol/);
  });

  it('rejects at once, without a request, when the client already went away', async () => {
    const a = await stub((_request, response) => json(response, 200, {}));
    const client = new AbortController();
    client.abort();
    const port = makePort([upstreamAt('a', a.url)], transport());
    expect(await failure(port.send(call({ signal: client.signal })))).toMatchObject({
      kind: 'aborted',
    });
    expect(a.requests).toHaveLength(0);
  });
});
