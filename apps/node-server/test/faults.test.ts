import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContractClient,
  asRecord,
  expectNativeError,
  readSse,
  startScriptedUpstream,
  toJsonReply,
  upstreamsServingEverything,
  type ScriptedUpstream,
} from '@infergate/testkit';
import { startNodeGateway, type NodeGateway } from './start-node-gateway.js';

// Tiny limits, wide bounds: the test asserts the limit was applied, not how fast.
const limitMs = 400;
const upstreamKey = 'upstream-canary-key-9f8e7d6c5b4a';
const messages = [{ role: 'user', content: 'Go.' }];

describe('faults of a misbehaving upstream (scripted upstream on loopback)', () => {
  let upstream: ScriptedUpstream;
  let gateway: NodeGateway;
  let client: ContractClient;

  beforeAll(async () => {
    upstream = await startScriptedUpstream();
    const upstreams = upstreamsServingEverything(upstream.url).map((entry) => ({
      ...entry,
      api_key: upstreamKey,
    }));
    gateway = await startNodeGateway({
      upstreams,
      timeouts: {
        connect_ms: 1000,
        first_event_ms: limitMs,
        headers_ms: limitMs,
        idle_ms: limitMs,
      },
    });
    client = new ContractClient(gateway);
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  const scripted = (script: string) => upstream.scripted(script);

  const chat = async (
    script: string,
    stream: boolean,
    path = '/v1/chat/completions',
  ): Promise<{ response: Response; requestId: string; startedAt: number }> => {
    const { headers, requestId } = scripted(script);
    const startedAt = Date.now();
    const body =
      path === '/v1/responses'
        ? { model: 'alpha36-35b-a3b-instruct', input: 'Go.', stream }
        : { model: 'alpha36-35b-a3b-instruct', messages, stream };
    return { response: await client.post(path, body, { headers }), requestId, startedAt };
  };

  const expectStillServing = async (): Promise<void> => {
    const { headers } = scripted('ok:2:0');
    const reply = await client.postJson(
      '/v1/chat/completions',
      { model: 'alpha36-35b-a3b-instruct', messages },
      { headers },
    );
    expect(reply.status, reply.text).toBe(200);
  };

  /** docs/design.md: a stream that fails after its 200 ends with `data: {"error": ...}` then `[DONE]`, never a clean end. */
  const expectChatTerminalError = async (response: Response, code?: string): Promise<void> => {
    expect(response.status).toBe(200);
    const { events } = await readSse(response);
    expect(events.at(-1)?.data).toBe('[DONE]');
    const error = asRecord(asRecord(JSON.parse(events.at(-2)?.data ?? '{}')).error);
    expect(typeof error.message).toBe('string');
    if (code !== undefined) expect(error.code).toBe(code);
    const finished = events.slice(0, -2).some((event) => {
      const choices =
        (JSON.parse(event.data) as { choices?: { finish_reason?: unknown }[] }).choices ?? [];
      return choices.some((choice) => choice.finish_reason === 'stop');
    });
    expect(finished).toBe(false);
  };

  it('stall before headers: 504 within the configured limit, upstream request closed', async () => {
    for (const stream of [false, true]) {
      const { response, requestId, startedAt } = await chat('stall-before-headers', stream);
      const reply = await toJsonReply(response);
      expectNativeError(reply, 504);
      expect(Date.now() - startedAt).toBeLessThan(limitMs + 5_000);
      const seen = await upstream.waitForRequest(
        (request) => request.headers['x-request-id'] === requestId,
      );
      await seen.closed;
      expect(seen.aborted).toBe(true);
    }
    await expectStillServing();
  });

  it('stall after the SSE headers: 504 before any byte reached the client', async () => {
    const { response } = await chat('stall-after-headers', true);
    expectNativeError(await toJsonReply(response), 504);
    await expectStillServing();
  });

  it('stall mid-stream: a terminating error event (upstream_timeout), upstream aborted', async () => {
    const { response, requestId } = await chat('stall-after:3', true);
    await expectChatTerminalError(response, 'upstream_timeout');
    const seen = await upstream.waitForRequest(
      (request) => request.headers['x-request-id'] === requestId,
    );
    await seen.closed;
    expect(seen.aborted).toBe(true);
    await expectStillServing();
  });

  it('stall mid-stream on /v1/responses: response.failed is the last event', async () => {
    const { response } = await chat('stall-after:3', true, '/v1/responses');
    expect(response.status).toBe(200);
    const { events } = await readSse(response);
    expect(events.at(-1)?.event).toBe('response.failed');
    expect(events.some((event) => event.event === 'response.completed')).toBe(false);
    await expectStillServing();
  });

  it('reset mid-stream and a clean end without [DONE] both end with the terminating error', async () => {
    await expectChatTerminalError((await chat('reset-after:3', true)).response);
    await expectChatTerminalError((await chat('eof-after:3', true)).response);
    await expectStillServing();
  });

  it('maps upstream statuses: 500 and 503 become 502, 400 passes through with its message, 429 keeps Retry-After', async () => {
    expectNativeError(await toJsonReply((await chat('status:500', false)).response), 502);
    expectNativeError(await toJsonReply((await chat('status:503', false)).response), 502);
    const html = await toJsonReply((await chat('status:502:html', false)).response);
    expectNativeError(html, 502);
    expect(html.text).not.toContain('10.1.2.3');
    const rejected = expectNativeError(
      await toJsonReply((await chat('status:400', false)).response),
      400,
    );
    expect(rejected.message).toContain('scripted failure 400');
    const limited = await toJsonReply((await chat('status:429', false)).response);
    expectNativeError(limited, 429);
    expect(limited.headers.get('retry-after')).toBe('7');
    await expectStillServing();
  });

  it('answers 502 for invalid JSON, an empty body, a redirect and a body over the size cap', async () => {
    expectNativeError(await toJsonReply((await chat('status:200:broken', false)).response), 502);
    expectNativeError(await toJsonReply((await chat('status:200:empty', false)).response), 502);
    expectNativeError(await toJsonReply((await chat('redirect', false)).response), 502);
    await expectStillServing();
  });

  it('never passes the upstream key to the client, even when the upstream echoes it', async () => {
    const reply = await toJsonReply((await chat('echo-auth', false)).response);
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.text).not.toContain(upstreamKey);
    expect(reply.text).not.toContain(upstreamKey.slice(0, 12));
  });

  it('retries once when the first attempt is reset before any byte, and the text arrives once', async () => {
    const { response, requestId } = await chat('fail-then-ok', true);
    expect(response.status).toBe(200);
    const { events } = await readSse(response);
    expect(events.at(-1)?.data).toBe('[DONE]');
    expect(events.some((event) => event.data.includes('"error"'))).toBe(false);
    expect(
      upstream.requests.filter((request) => request.headers['x-request-id'] === requestId),
    ).toHaveLength(2);
  });

  it('never retries after the first byte reached the client', async () => {
    const { response, requestId } = await chat('reset-after:2', true);
    await expectChatTerminalError(response);
    expect(
      upstream.requests.filter((request) => request.headers['x-request-id'] === requestId),
    ).toHaveLength(1);
  });
});
