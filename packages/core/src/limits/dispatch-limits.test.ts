import { describe, expect, it } from 'vitest';
import { dispatch, fakeGatewayDeps, handlerInput } from '../../test/fake-gateway-deps.js';
import { chatRoute as route, streamHandler } from '../../test/test-routes.js';
import { scriptedReads } from '../handlers/text-test-ports.js';
import type { RouteHandler, StreamResult } from '../ports/handler-types.js';
import type { LimitRequest, LimitStore } from './limit-store.js';
import { bodyText } from '../http/body-text.js';

const key = 'sk-limited-0123456789';
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const body = JSON.stringify({
  model: 'm',
  messages: [{ role: 'user', content: 'hello' }],
  max_tokens: 10,
});

const usageHandler: RouteHandler = async () => ({
  kind: 'json',
  status: 200,
  headers: {},
  body: '{}',
  meta: { inputTokens: 5, outputTokens: 10 },
});

/** `events` data events; the first comes only after `firstAfterMs`, so keep-alive comments go out before it. */
function streamOf(events: number, firstAfterMs = 0): RouteHandler {
  return streamHandler(async function* () {
    await new Promise((resolve) => setTimeout(resolve, firstAfterMs));
    for (let sent = 0; sent < events; sent += 1) yield { data: '{}' };
  });
}

function depsWith(limits: Record<string, number>, limiter?: LimitStore) {
  return fakeGatewayDeps({
    keys: [{ key, name: 'team-a', limits }],
    file: { timeouts: { keepalive_ms: 10 } },
    ...(limiter === undefined ? {} : { limiter }),
  });
}

describe('dispatch: key limits', () => {
  it('answers 429 in the native envelope with Retry-After and the rate-limit headers past requests_per_minute', async () => {
    const deps = depsWith({ requestsPerMinute: 2, tokensPerMinute: 1000 });
    const first = await dispatch(route(usageHandler), handlerInput({ headers, body }), deps);
    expect(first.status).toBe(200);
    expect(first.headers).toMatchObject({
      'x-ratelimit-limit-requests': '2',
      'x-ratelimit-remaining-requests': '1',
      'x-ratelimit-reset-requests': '1m0s',
      'x-ratelimit-limit-tokens': '1000',
    });
    await dispatch(route(usageHandler), handlerInput({ headers, body }), deps);
    const refused = await dispatch(route(usageHandler), handlerInput({ headers, body }), deps);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.headers['x-ratelimit-remaining-requests']).toBe('0');
    const error = JSON.parse(refused.kind === 'json' ? bodyText(refused.body) : '{}').error;
    expect(error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect(error.message).toContain('requests per minute');
  });

  it('answers 429 in the compat envelope on compat routes', async () => {
    const deps = depsWith({ requestsPerMinute: 1 });
    const compat = route(usageHandler, {
      path: '/compat/v2/embed',
      operationId: 'compatEmbed',
      envelope: 'compat',
    });
    await dispatch(compat, handlerInput({ headers, body: '{}' }), deps);
    const refused = await dispatch(
      compat,
      handlerInput({ headers, body: '{}', requestId: 'req-429' }),
      deps,
    );
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.kind === 'json' ? bodyText(refused.body) : '{}')).toEqual({
      id: 'req-429',
      message: expect.stringContaining('Rate limit'),
    });
  });

  it('replaces the token reservation by the reported usage; a key without limits and bodyless routes are not counted', async () => {
    const deps = depsWith({ tokensPerMinute: 100 });
    const first = await dispatch(route(usageHandler), handlerInput({ headers, body }), deps);
    expect(Number(first.headers['x-ratelimit-remaining-tokens'])).toBe(
      100 - (Math.ceil(body.length / 4) + 10),
    );
    const second = await dispatch(route(usageHandler), handlerInput({ headers, body }), deps);
    // The first request settled at its usage (15 tokens), not its estimate.
    expect(Number(second.headers['x-ratelimit-remaining-tokens'])).toBe(
      100 - 15 - (Math.ceil(body.length / 4) + 10),
    );
    const catalogue = await dispatch(
      route(usageHandler, { method: 'GET', path: '/v1/models', bodyLimit: 'none' }),
      handlerInput({ headers }),
      deps,
    );
    expect(catalogue.headers['x-ratelimit-limit-tokens']).toBeUndefined();
  });

  it("counts a -pe request's prompt enhancement tokens towards the key's tokens", async () => {
    const deps = depsWith({ tokensPerMinute: 1000 });
    const enhanced: RouteHandler = async () => ({
      kind: 'json',
      status: 200,
      headers: {},
      body: '{}',
      meta: {
        inputTokens: 5,
        outputTokens: 10,
        promptEnhancement: {
          model: 'alpha35-122b-a10b-instruct-general',
          inputTokens: 40,
          outputTokens: 60,
        },
      },
    });
    await dispatch(route(enhanced), handlerInput({ headers, body }), deps);
    const next = await dispatch(route(usageHandler), handlerInput({ headers, body }), deps);
    // Settled at 5 + 10 for the image model plus 40 + 60 for the text model's rewrite.
    expect(Number(next.headers['x-ratelimit-remaining-tokens'])).toBe(
      1000 - 115 - (Math.ceil(body.length / 4) + 10),
    );
  });

  it('holds a concurrency slot while a stream is open and settles a cut stream with the events sent', async () => {
    const requests: LimitRequest[] = [];
    const settled: number[] = [];
    const store: LimitStore = {
      acquire: async (request) => {
        requests.push(request);
        return { admitted: true, snapshot: {}, lease: { settle: (used) => settled.push(used) } };
      },
    };
    const deps = depsWith({ concurrentRequests: 1 }, store);
    const result = (await dispatch(
      route(streamOf(100, 60)),
      handlerInput({ headers, body }),
      deps,
    )) as StreamResult;
    const reader = result.stream.getReader();
    const decoder = new TextDecoder();
    let comments = 0;
    for (let data = 0; data < 3;) {
      const chunk = decoder.decode((await reader.read()).value);
      if (chunk.startsWith(':')) comments += 1;
      else data += 1;
    }
    await reader.cancel();
    expect(comments).toBeGreaterThan(0);
    // Three data events reached the client (keep-alive comments are not output) plus the prompt estimate.
    expect(settled).toEqual([Math.ceil(body.length / 4) + 3]);
    expect(requests[0]).toMatchObject({ key: 'team-a', limits: { concurrentRequests: 1 } });
  });

  it('settles a cut stream with the events sent, not the chunks, when one chunk carries several', async () => {
    const settled: number[] = [];
    const store: LimitStore = {
      acquire: async () => ({
        admitted: true,
        snapshot: {},
        lease: { settle: (used) => settled.push(used) },
      }),
    };
    const deps = depsWith({ concurrentRequests: 1 }, store);
    const reads = [
      [{ data: '{}' }, { data: '{}' }, { data: '{}' }, { data: '{}' }],
      [{ data: '{}' }],
    ];
    const result = (await dispatch(
      route(streamHandler(() => scriptedReads(reads))),
      handlerInput({ headers, body }),
      deps,
    )) as StreamResult;
    const reader = result.stream.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: {}\n\n'.repeat(4));
    await reader.cancel();
    expect(settled).toEqual([Math.ceil(body.length / 4) + 4]);
  });

  it('frees the concurrency slot of the in-memory store when a stream ends', async () => {
    const deps = depsWith({ concurrentRequests: 1 });
    const open = (await dispatch(
      route(streamOf(2)),
      handlerInput({ headers, body }),
      deps,
    )) as StreamResult;
    expect(
      (await dispatch(route(usageHandler), handlerInput({ headers, body }), deps)).status,
    ).toBe(429);
    await new Response(open.stream).text();
    expect(
      (await dispatch(route(usageHandler), handlerInput({ headers, body }), deps)).status,
    ).toBe(200);
  });

  it('admits the request when the store fails: limits never become a 5xx', async () => {
    const deps = depsWith(
      { requestsPerMinute: 1 },
      { acquire: () => Promise.reject(new Error('down')) },
    );
    expect(
      (await dispatch(route(usageHandler), handlerInput({ headers, body }), deps)).status,
    ).toBe(200);
  });
});
