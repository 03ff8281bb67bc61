import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../src/errors/gateway-error.js';
import type { HandlerResult, HttpMethod, JsonResult } from '../src/ports/handler-types.js';
import { matchRoute } from '../src/http/match-route.js';
import { routeTable } from '../src/gateway/route-table.js';
import { dispatch, fakeGatewayDeps, handlerInput, testKey } from './fake-gateway-deps.js';
import type { FakeDeps } from './fake-gateway-deps.js';
import { bodyText } from '../src/http/body-text.js';

async function call(
  method: HttpMethod | string,
  path: string,
  deps: FakeDeps,
  headers: Record<string, string> = { authorization: `Bearer ${testKey}` },
): Promise<JsonResult> {
  const match = matchRoute(routeTable, method, path);
  if (isGatewayError(match)) throw new Error(`no route for ${method} ${path}: ${match.status}`);
  const result: HandlerResult = await dispatch(
    match.route,
    handlerInput({ method, path, params: match.params, headers, requestId: 'req-rt' }),
    deps,
  );
  if (result.kind !== 'json') throw new Error('expected JSON');
  return result;
}

// The spec's endpoints and docs/design.md's health checks: [method, path, body limit, envelope].
const supported: Array<[HttpMethod, string, string, string]> = [
  ['POST', '/v1/responses', 'image', 'native'],
  ['POST', '/v1/chat/completions', 'image', 'native'],
  ['POST', '/v1/embeddings', 'json', 'native'],
  ['POST', '/compat/v2/embed', 'image', 'compat'],
  ['POST', '/compat/v2/rerank', 'json', 'compat'],
  ['POST', '/v1/images/generations', 'json', 'native'],
  ['POST', '/v1/images/edits', 'image', 'native'],
  ['POST', '/tokenize', 'json', 'native'],
  ['POST', '/v1/messages', 'image', 'anthropic'],
  ['POST', '/v1/messages/count_tokens', 'json', 'anthropic'],
  ['GET', '/v1/models', 'none', 'native'],
  ['GET', '/v1/models/{id}', 'none', 'native'],
  ['GET', '/pricing', 'none', 'native'],
  ['GET', '/healthz', 'none', 'native'],
  ['GET', '/readyz', 'none', 'native'],
];

// The operator surface: the OpenAPI document, the reference page and its script, metrics, the
// operator page with its script and data.
const operatorSurface: Array<[HttpMethod, string, string, string]> = [
  ['GET', '/openapi.json', 'none', 'native'],
  ['GET', '/docs', 'none', 'native'],
  ['GET', '/docs/assets/reference.js', 'none', 'native'],
  ['GET', '/metrics', 'none', 'native'],
  ['GET', '/upstreamz', 'none', 'native'],
  ['GET', '/status', 'none', 'native'],
  ['GET', '/status/script.js', 'none', 'native'],
  ['GET', '/status.json', 'none', 'native'],
  ['GET', '/', 'none', 'native'],
];

// The spec's "Unsupported" lists under POST /v1/responses, POST /v1/chat/completions and POST /v1/images/edits.
const storedData: Array<[HttpMethod, string]> = [
  ['GET', '/v1/responses/resp_123'],
  ['DELETE', '/v1/responses/resp_123'],
  ['GET', '/v1/responses/resp_123/input_items'],
  ['POST', '/v1/responses/input_tokens'],
  ['POST', '/v1/responses/resp_123/cancel'],
  ['POST', '/v1/responses/compact'],
  ['GET', '/v1/chat/completions'],
  ['GET', '/v1/chat/completions/chatcmpl-abc'],
  ['POST', '/v1/chat/completions/chatcmpl-abc'],
  ['DELETE', '/v1/chat/completions/chatcmpl-abc'],
];

// The spec's "Unsupported: POST /v1/images/variations": nothing stored about it, simply not offered.
const notOffered: Array<[HttpMethod, string]> = [['POST', '/v1/images/variations']];

// The spec's "Not supported on a the service ... called at {master_url}".
const masterOnly: Array<[HttpMethod, string]> = [
  ['POST', '/document'],
  ['GET', '/usage'],
  ['GET', '/usage/history'],
];

describe('routeTable', () => {
  it('holds each supported endpoint once, with its body limit and envelope', () => {
    for (const [method, path, bodyLimit, envelope] of [...supported, ...operatorSurface]) {
      const routes = routeTable.filter((route) => route.method === method && route.path === path);
      expect(routes, `${method} ${path}`).toHaveLength(1);
      expect(routes[0]).toMatchObject({ bodyLimit, envelope });
    }
  });

  it('has no duplicate method and path, and unique operation ids', () => {
    const keys = routeTable.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = routeTable.map((route) => route.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('needs a key on every route but the health checks, the document, the reference page, the operator page and the root redirecting to it (operator endpoints check their own keys)', () => {
    expect(
      routeTable
        .filter((route) => !route.auth)
        .map((route) => route.path)
        .sort(),
    ).toEqual([
      '/',
      '/docs',
      '/docs/assets/reference.js',
      '/healthz',
      '/metrics',
      '/openapi.json',
      '/readyz',
      '/status',
      '/status.json',
      '/status/script.js',
      '/upstreamz',
    ]);
    expect(
      routeTable
        .filter((route) => route.operator === true)
        .map((route) => route.path)
        .sort(),
    ).toEqual(['/metrics', '/status.json', '/upstreamz']);
  });

  it('holds nothing beyond the spec, the stored-data and the master-only endpoints and the operator surface', () => {
    expect(routeTable).toHaveLength(
      supported.length +
        operatorSurface.length +
        storedData.length +
        notOffered.length +
        masterOnly.length,
    );
  });
});

describe('endpoints not offered', () => {
  it.each(notOffered)(
    '%s %s is 404 unsupported_endpoint saying it is not offered (not that data is stored)',
    async (method, path) => {
      const result = await call(method, path, fakeGatewayDeps());
      expect(result.status).toBe(404);
      const { error } = JSON.parse(bodyText(result.body));
      expect(error.code).toBe('unsupported_endpoint');
      expect(error.message).toBe(`${method} ${path} is not offered by this gateway.`);
      expect(error.message).not.toContain('stores no data');
    },
  );
});

describe('GET /', () => {
  it('redirects to the reference page without a key, and is 404 with docs switched off', async () => {
    const root = await call('GET', '/', fakeGatewayDeps(), {});
    expect([root.status, root.headers.location, root.body]).toEqual([302, '/docs', '']);
    const off = await call('GET', '/', fakeGatewayDeps({ file: { docs: { enabled: false } } }), {});
    expect(off.status).toBe(404);
  });
});

describe('stored-data endpoints', () => {
  it.each(storedData)(
    '%s %s is 404 unsupported_endpoint saying the gateway stores no data',
    async (method, path) => {
      const result = await call(method, path, fakeGatewayDeps());
      expect(result.status).toBe(404);
      const { error } = JSON.parse(bodyText(result.body));
      expect(error.code).toBe('unsupported_endpoint');
      expect(error.message).toContain('stores no data');
      expect(result.headers['x-request-id']).toBe('req-rt');
    },
  );

  it('still asks for a key first', async () => {
    expect((await call('GET', '/v1/responses/resp_1', fakeGatewayDeps(), {})).status).toBe(401);
  });

  it('answers 405 with Allow for a supported path with the wrong method', () => {
    const match = matchRoute(routeTable, 'PUT', '/v1/chat/completions');
    expect(isGatewayError(match) && [match.status, match.headers.allow]).toEqual([
      405,
      'POST, GET, HEAD',
    ]);
    const responses = matchRoute(routeTable, 'GET', '/v1/responses');
    expect(isGatewayError(responses) && [responses.status, responses.headers.allow]).toEqual([
      405,
      'POST',
    ]);
  });
});

describe('master-only endpoints', () => {
  it.each(masterOnly)(
    '%s %s is 404 use_master_endpoint naming the configured master URL',
    async (method, path) => {
      const result = await call(
        method,
        path,
        fakeGatewayDeps({ file: { master_url: 'https://master.example.com' } }),
      );
      expect(result.status).toBe(404);
      const { error } = JSON.parse(bodyText(result.body));
      expect(error.code).toBe('use_master_endpoint');
      expect(error.message).toContain('https://master.example.com');
    },
  );

  it('says so when no master URL is configured', async () => {
    const { error } = JSON.parse(bodyText((await call('GET', '/usage', fakeGatewayDeps())).body));
    expect(error.code).toBe('use_master_endpoint');
    expect(error.message).toContain('no master_url is configured');
  });
});

describe('models, pricing and health through the table', () => {
  it('GET /v1/models/{id} of an unknown id is 404 model_not_found', async () => {
    const result = await call('GET', '/v1/models/alpha99', fakeGatewayDeps());
    expect(result.status).toBe(404);
    expect(JSON.parse(bodyText(result.body)).error.code).toBe('model_not_found');
  });

  it('GET /v1/models/{id} of a virtual id answers the model', async () => {
    const result = await call('GET', '/v1/models/general-pro', fakeGatewayDeps());
    expect(JSON.parse(bodyText(result.body))).toMatchObject({
      id: 'general-pro',
      maps_to: 'alpha35-122b-a10b-instruct-general',
    });
  });

  it('GET /pricing needs a key', async () => {
    expect((await call('GET', '/pricing', fakeGatewayDeps(), {})).status).toBe(401);
  });

  it('health checks answer without a key; readyz is 503 while draining, never for an unreachable upstream', async () => {
    const unreachable = fakeGatewayDeps({
      upstream: {
        health: () => [
          {
            upstream: 'dead',
            state: 'unreachable',
            models: ['gamma-m3'],
            inFlight: 0,
            consecutiveFailures: 1,
            ejectedForMs: 0,
          },
        ],
      },
    });
    expect((await call('GET', '/healthz', unreachable, {})).status).toBe(200);
    expect((await call('GET', '/readyz', unreachable, {})).status).toBe(200);
    unreachable.gateway.drain();
    expect((await call('GET', '/readyz', unreachable, {})).status).toBe(503);
  });

  it('GET /upstreamz lists each upstream`s health for operator keys only', async () => {
    const health = [
      {
        upstream: 'dead',
        state: 'unreachable' as const,
        models: ['gamma-m3'],
        inFlight: 0,
        consecutiveFailures: 2,
        ejectedForMs: 0,
      },
      {
        upstream: 'live',
        state: 'up' as const,
        models: ['general-std'],
        inFlight: 1,
        consecutiveFailures: 0,
        ejectedForMs: 0,
      },
    ];
    const deps = fakeGatewayDeps({
      keys: [testKey, { key: 'sk-ops-0123456789', name: 'ops', operator: true }],
      upstream: { health: () => health },
    });
    const answer = await call('GET', '/upstreamz', deps, {
      authorization: 'Bearer sk-ops-0123456789',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(bodyText(answer.body))).toEqual({
      object: 'list',
      data: [
        {
          upstream: 'dead',
          state: 'unreachable',
          models: ['gamma-m3'],
          in_flight: 0,
          consecutive_failures: 2,
          ejected_for_ms: 0,
        },
        {
          upstream: 'live',
          state: 'up',
          models: ['general-std'],
          in_flight: 1,
          consecutive_failures: 0,
          ejected_for_ms: 0,
        },
      ],
    });
    const refused = await call('GET', '/upstreamz', deps);
    expect([refused.status, JSON.parse(bodyText(refused.body)).error.code]).toEqual([
      403,
      'operator_key_required',
    ]);
    expect((await call('GET', '/upstreamz', deps, {})).status).toBe(401);
  });
});
