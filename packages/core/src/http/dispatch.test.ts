import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { dispatch, fakeGatewayDeps, handlerInput, testKey } from '../../test/fake-gateway-deps.js';
import { failingEvents, streamHandler } from '../../test/test-routes.js';
import { GatewayError } from '../errors/gateway-error.js';
import { envelopeForPath, errorResult } from './dispatch.js';
import type {
  HandlerResult,
  JsonResult,
  RouteDefinition,
  RouteHandler,
  StreamResult,
} from '../ports/handler-types.js';
import { bodyText } from './body-text.js';

const okHandler: RouteHandler = async () => ({
  kind: 'json',
  status: 200,
  headers: {},
  body: '{"ok":true}',
  meta: { model: 'gamma-m3', endpoint: 'local-backend-openai', inputTokens: 7, outputTokens: 0 },
});

function route(fields: Partial<RouteDefinition> = {}): RouteDefinition {
  return {
    method: 'POST',
    path: '/v1/embeddings',
    operationId: 'createEmbedding',
    auth: true,
    bodyLimit: 'json',
    envelope: 'native',
    contract: { answers: 'json', response: z.unknown(), endpoint: 'embeddings' },
    handler: okHandler,
    ...fields,
  };
}

const authorized = { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' };

function json(result: HandlerResult): JsonResult {
  if (result.kind !== 'json') throw new Error('expected a JSON result');
  return result;
}

describe('dispatch: authentication', () => {
  it.each([
    ['no authorization header', { 'content-type': 'application/json' }],
    ['a wrong key', { authorization: 'Bearer sk-wrong', 'content-type': 'application/json' }],
    ['another scheme', { authorization: `Basic ${testKey}`, 'content-type': 'application/json' }],
    // 401 comes before anything else, the content type included.
    ['no key and a wrong content type', { 'content-type': 'text/plain' }],
  ])(
    'answers 401 with WWW-Authenticate: Bearer for %s, without calling the handler',
    async (_name, headers) => {
      const handler = vi.fn(okHandler);
      const result = json(
        await dispatch(
          route({ handler }),
          handlerInput({ headers, requestId: 'req-401' }),
          fakeGatewayDeps(),
        ),
      );
      expect(result.status).toBe(401);
      expect(result.headers['www-authenticate']).toBe('Bearer');
      expect(result.headers['x-request-id']).toBe('req-401');
      expect(JSON.parse(bodyText(result.body))).toEqual({
        error: {
          message: expect.any(String),
          type: 'authentication_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
      expect(handler).not.toHaveBeenCalled();
    },
  );

  it('hands the handler the identity of the key', async () => {
    const handler = vi.fn(okHandler);
    await dispatch(route({ handler }), handlerInput({ headers: authorized }), fakeGatewayDeps());
    expect(handler.mock.calls[0]?.[1].identity).toEqual({ name: 'key-1' });
  });

  it('lets a route without auth through with no identity', async () => {
    const handler = vi.fn(okHandler);
    const result = await dispatch(
      route({ auth: false, handler, method: 'GET', bodyLimit: 'none' }),
      handlerInput(),
      fakeGatewayDeps(),
    );
    expect(result.status).toBe(200);
    expect(handler.mock.calls[0]?.[1].identity).toBeUndefined();
  });
});

describe('dispatch: content type', () => {
  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/jsonl',
  ])('answers 415 for %s', async (contentType) => {
    const result = json(
      await dispatch(
        route(),
        handlerInput({ headers: { ...authorized, 'content-type': contentType } }),
        fakeGatewayDeps(),
      ),
    );
    expect(result.status).toBe(415);
    expect(JSON.parse(bodyText(result.body)).error.code).toBe('unsupported_media_type');
  });

  it('answers 415 when a route with a body has no content type', async () => {
    const result = await dispatch(
      route(),
      handlerInput({ headers: { authorization: `Bearer ${testKey}` } }),
      fakeGatewayDeps(),
    );
    expect(result.status).toBe(415);
  });

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON;charset=UTF-8',
  ])('accepts %s', async (contentType) => {
    const result = await dispatch(
      route(),
      handlerInput({ headers: { ...authorized, 'content-type': contentType } }),
      fakeGatewayDeps(),
    );
    expect(result.status).toBe(200);
  });

  it('does not ask for a content type on a route without a body', async () => {
    const result = await dispatch(
      route({ method: 'GET', bodyLimit: 'none' }),
      handlerInput({ headers: { authorization: `Bearer ${testKey}` } }),
      fakeGatewayDeps(),
    );
    expect(result.status).toBe(200);
  });
});

describe('dispatch: errors and headers', () => {
  const failing: RouteHandler = async () => {
    throw GatewayError.badRequest('The field is wrong.', 'input');
  };

  it('answers a native route in the native envelope', async () => {
    const result = json(
      await dispatch(
        route({ handler: failing }),
        handlerInput({ headers: authorized }),
        fakeGatewayDeps(),
      ),
    );
    expect(result.status).toBe(400);
    expect(JSON.parse(bodyText(result.body))).toEqual({
      error: {
        message: 'The field is wrong.',
        type: 'invalid_request_error',
        param: 'input',
        code: 'invalid_request',
      },
    });
  });

  it('answers a compat route in the compat envelope {id, message}', async () => {
    const result = json(
      await dispatch(
        route({ handler: failing, envelope: 'compat', path: '/compat/v2/rerank' }),
        handlerInput({ headers: authorized, requestId: 'req-c1' }),
        fakeGatewayDeps(),
      ),
    );
    expect(result.status).toBe(400);
    expect(JSON.parse(bodyText(result.body))).toEqual({
      id: 'req-c1',
      message: 'The field is wrong.',
    });
  });

  it('turns an unexpected failure into a 500 that reveals nothing', async () => {
    const result = json(
      await dispatch(
        route({ handler: () => Promise.reject(new Error('secret at http://10.0.0.5')) }),
        handlerInput({ headers: authorized }),
        fakeGatewayDeps(),
      ),
    );
    expect(result.status).toBe(500);
    expect(result.body).not.toContain('10.0.0.5');
  });

  it('never rejects, even when the key store fails', async () => {
    const deps = fakeGatewayDeps({
      keyStore: { verify: () => Promise.reject(new Error('store down')) },
    });
    const result = await dispatch(route(), handlerInput({ headers: authorized }), deps);
    expect(result.status).toBe(500);
  });

  it('adds x-request-id and a content type to every result, keeping the handler headers', async () => {
    const handler: RouteHandler = async () => ({
      kind: 'json',
      status: 201,
      headers: { 'x-infergate-ignored-params': 'top_k' },
      body: '{}',
      meta: {},
    });
    const result = await dispatch(
      route({ handler }),
      handlerInput({ headers: authorized, requestId: 'req-42' }),
      fakeGatewayDeps(),
    );
    expect(result.headers).toEqual({
      'x-infergate-ignored-params': 'top_k',
      'x-request-id': 'req-42',
      'content-type': 'application/json',
    });
  });
});

describe('dispatch: metrics', () => {
  it('records a JSON request once, with status, model, endpoint and tokens', async () => {
    const deps = fakeGatewayDeps();
    const result = await dispatch(
      route(),
      handlerInput({ headers: authorized, requestId: 'req-m1' }),
      deps,
    );
    expect(result.meta.keyName).toBe('key-1');
    expect(deps.records).toEqual([
      {
        requestId: 'req-m1',
        keyName: 'key-1',
        operationId: 'createEmbedding',
        status: 200,
        model: 'gamma-m3',
        endpoint: 'local-backend-openai',
        inputTokens: 7,
        outputTokens: 0,
      },
    ]);
  });

  it('records a refused request too', async () => {
    const deps = fakeGatewayDeps();
    await dispatch(route(), handlerInput({ requestId: 'req-m2' }), deps);
    expect(deps.records).toEqual([
      { requestId: 'req-m2', operationId: 'createEmbedding', status: 401 },
    ]);
  });

  it('survives a metrics sink that throws', async () => {
    const deps = fakeGatewayDeps({
      metrics: {
        record: () => {
          throw new Error('sink down');
        },
      },
    });
    expect((await dispatch(route(), handlerInput({ headers: authorized }), deps)).status).toBe(200);
  });

  function streamingRoute(onCancel: () => void): RouteDefinition {
    const handler: RouteHandler = async () => {
      const meta: StreamResult['meta'] = {};
      const events = (async function* () {
        yield { data: '1' };
        yield { data: '2' };
        // The handler learns model and usage only at the end of the stream.
        Object.assign(meta, { model: 'beta53-flash-chat', inputTokens: 3, outputTokens: 2 });
      })();
      return {
        kind: 'stream',
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        events,
        onCancel,
        meta,
      };
    };
    return route({
      path: '/v1/chat/completions',
      operationId: 'createChatCompletion',
      bodyLimit: 'image',
      handler,
    });
  }

  it('records a stream once, when it has been read to the end, with the final meta', async () => {
    const deps = fakeGatewayDeps();
    const result = await dispatch(
      streamingRoute(() => undefined),
      handlerInput({ headers: authorized, requestId: 'req-s1' }),
      deps,
    );
    if (result.kind !== 'stream') throw new Error('expected a stream');
    expect(result.headers['x-request-id']).toBe('req-s1');
    expect(deps.records).toEqual([]);
    const text = await new Response(result.stream).text();
    expect(text).toBe('data: 1\n\ndata: 2\n\n');
    expect(deps.records).toEqual([
      {
        requestId: 'req-s1',
        keyName: 'key-1',
        operationId: 'createChatCompletion',
        status: 200,
        model: 'beta53-flash-chat',
        inputTokens: 3,
        outputTokens: 2,
      },
    ]);
  });

  it('records a cancelled stream once as 499 and passes the cancel on to the handler', async () => {
    const deps = fakeGatewayDeps();
    const onCancel = vi.fn();
    const result = await dispatch(
      streamingRoute(onCancel),
      handlerInput({ headers: authorized, requestId: 'req-s2' }),
      deps,
    );
    if (result.kind !== 'stream') throw new Error('expected a stream');
    const reader = result.stream.getReader();
    await reader.read();
    await reader.cancel('client went away');
    expect(onCancel).toHaveBeenCalledOnce();
    expect(deps.records).toEqual([
      { requestId: 'req-s2', keyName: 'key-1', operationId: 'createChatCompletion', status: 499 },
    ]);
  });
});

describe('dispatch: a stream that fails', () => {
  it('records it once with its status and passes the failure on to the reader', async () => {
    const deps = fakeGatewayDeps();
    const handler = streamHandler(() => failingEvents('upstream reset'));
    const result = await dispatch(
      route({ handler }),
      handlerInput({ headers: authorized, requestId: 'req-s3' }),
      deps,
    );
    if (result.kind !== 'stream') throw new Error('expected a stream');
    expect(result.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await expect(result.stream.getReader().read()).rejects.toThrow('upstream reset');
    expect(deps.records).toEqual([
      { requestId: 'req-s3', keyName: 'key-1', operationId: 'createEmbedding', status: 200 },
    ]);
  });
});

describe('errorResult and envelopeForPath', () => {
  it('builds an app-level failure in the given envelope with its headers', () => {
    const result = errorResult(GatewayError.payloadTooLarge(2_097_152), 'native', 'req-e1');
    expect(result.status).toBe(413);
    expect(result.headers).toEqual({
      'content-type': 'application/json',
      'x-request-id': 'req-e1',
    });
    expect(JSON.parse(bodyText(result.body)).error.code).toBe('request_too_large');
    const compat = errorResult(GatewayError.unsupportedMediaType('text/plain'), 'compat', 'req-e2');
    expect(JSON.parse(bodyText(compat.body))).toEqual({
      id: 'req-e2',
      message: expect.stringContaining('application/json'),
    });
  });

  it('picks the compat envelope for /compat/ paths only', () => {
    expect(envelopeForPath('/compat/v2/embed')).toBe('compat');
    expect(envelopeForPath('/compat/v2/nothing-here')).toBe('compat');
    expect(envelopeForPath('/v1/embeddings')).toBe('native');
    expect(envelopeForPath('/compatible')).toBe('native');
  });
});
