import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedUpstream,
  upstreamsServingEverything,
  type ScriptedUpstream,
} from '@infergate/testkit';
import { startNodeGateway, testApiKey, type NodeGateway } from './start-node-gateway.js';

/*
 * /readyz says whether this replica can take a new request. Over real HTTP: 503 `saturated`
 * while limits.max_concurrent_requests requests run (the next one would get 503 overloaded), 200 again
 * once one ends, and 503 `draining` from the moment the server drains.
 */

let upstream: ScriptedUpstream;
let gateway: NodeGateway;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  gateway = await startNodeGateway({
    upstreams: upstreamsServingEverything(upstream.url),
    limits: { max_concurrent_requests: 2 },
  });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

async function readyz(): Promise<[number, unknown]> {
  const response = await fetch(`${gateway.baseUrl}/readyz`);
  return [response.status, await response.json()];
}

/** A stream the upstream keeps open (two events, then silence) until the client aborts it. */
async function heldStream(controller: AbortController): Promise<void> {
  const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${testApiKey}`,
      'content-type': 'application/json',
      ...upstream.scripted('stall-after:2').headers,
    },
    body: JSON.stringify({
      model: 'alpha36-35b-a3b-instruct',
      messages: [{ role: 'user', content: 'hold' }],
      stream: true,
    }),
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  await (response.body as ReadableStream<Uint8Array>).getReader().read();
}

describe('/readyz follows this replica, over HTTP', () => {
  it('is 503 saturated while the admission cap is full, and 200 again once a request ends', async () => {
    expect(await readyz()).toEqual([200, { status: 'ready' }]);
    const first = new AbortController();
    const second = new AbortController();
    await heldStream(first);
    expect(await readyz()).toEqual([200, { status: 'ready' }]);
    await heldStream(second);
    expect(await readyz()).toEqual([503, { status: 'not_ready', reason: 'saturated' }]);
    // What a load balancer that kept sending would get.
    const refused = await fetch(`${gateway.baseUrl}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${testApiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gamma-m3', input: 'x' }),
    });
    expect([
      refused.status,
      ((await refused.json()) as { error: { code: string } }).error.code,
    ]).toEqual([503, 'overloaded']);

    first.abort();
    let status = 503;
    for (const deadline = Date.now() + 5_000; status === 503 && Date.now() < deadline;) {
      status = (await readyz())[0];
      if (status === 503) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(200);
    second.abort();
  });

  it('is 503 draining from the moment the server drains', async () => {
    expect((await readyz())[0]).toBe(200);
    gateway.server.drain();
    expect(await readyz()).toEqual([503, { status: 'not_ready', reason: 'draining' }]);
  });
});
