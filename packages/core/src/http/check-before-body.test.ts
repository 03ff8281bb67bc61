import { describe, expect, it, vi } from 'vitest';
import { fakeGatewayDeps, handlerInput, testKey } from '../../test/fake-gateway-deps.js';
import { chatRoute } from '../../test/test-routes.js';
import { isGatewayError, type GatewayError } from '../errors/gateway-error.js';
import type { ApiKeyIdentity, KeyStore } from '../ports/ports.js';
import type { RouteHandler } from '../ports/handler-types.js';
import { requestToken } from './check-before-body.js';

const okHandler: RouteHandler = async () => ({
  kind: 'json',
  status: 200,
  headers: {},
  body: '{}',
  meta: {},
});
const route = chatRoute(okHandler);
const json = 'application/json';

const headerOf =
  (headers: Record<string, string>) =>
  (name: string): string | undefined =>
    headers[name];

/** The refusal a check threw (or rejected with), else undefined. */
async function refusal(check: () => unknown): Promise<GatewayError | undefined> {
  try {
    await check();
  } catch (error) {
    if (isGatewayError(error)) return error;
    throw error;
  }
  return undefined;
}

/** A key store that counts its verifications, synchronous like node:crypto's digest or waiting like WebCrypto's. */
function countingKeys(waits: boolean): KeyStore & { calls: number } {
  const store = {
    calls: 0,
    verify(token: string): ApiKeyIdentity | undefined | Promise<ApiKeyIdentity | undefined> {
      store.calls += 1;
      const identity = token === testKey ? { name: 'key-1' } : undefined;
      return waits ? Promise.resolve(identity) : identity;
    },
  };
  return store;
}

describe('checkBeforeBody: what a request passes before its body is read', () => {
  it.each([
    ['no authorization header', { 'content-type': json }],
    ['a wrong key', { authorization: 'Bearer sk-wrong', 'content-type': json }],
    ['another scheme', { authorization: `Basic ${testKey}`, 'content-type': json }],
    ['no key and a wrong content type', { 'content-type': 'text/plain' }],
  ])('refuses %s with 401 and WWW-Authenticate: Bearer', async (_name, headers) => {
    const { gateway } = fakeGatewayDeps();
    const error = await refusal(() => gateway.checkBeforeBody(route, headerOf(headers)));
    expect(error?.status).toBe(401);
    expect(error?.headers['www-authenticate']).toBe('Bearer');
  });

  it('refuses a valid key with a body that is not JSON with 415', async () => {
    const { gateway } = fakeGatewayDeps();
    const error = await refusal(() =>
      gateway.checkBeforeBody(
        route,
        headerOf({ authorization: `Bearer ${testKey}`, 'content-type': 'text/plain' }),
      ),
    );
    expect(error?.status).toBe(415);
  });

  it('takes a multipart form only on a route that reads forms, and says so in the 415', async () => {
    const { gateway } = fakeGatewayDeps();
    const form = {
      authorization: `Bearer ${testKey}`,
      'content-type': 'multipart/form-data; boundary=----x',
    };
    const onJsonRoute = await refusal(() => gateway.checkBeforeBody(route, headerOf(form)));
    expect([onJsonRoute?.status, onJsonRoute?.message]).toEqual([
      415,
      "Content-Type must be application/json, got 'multipart/form-data; boundary=----x'.",
    ]);
    const formRoute = chatRoute(okHandler, { multipart: true });
    expect(await gateway.checkBeforeBody(formRoute, headerOf(form))).toEqual({ name: 'key-1' });
    const text = await refusal(() =>
      gateway.checkBeforeBody(
        formRoute,
        headerOf({ authorization: `Bearer ${testKey}`, 'content-type': 'text/plain' }),
      ),
    );
    expect([text?.status, text?.message]).toEqual([
      415,
      "Content-Type must be application/json or multipart/form-data, got 'text/plain'.",
    ]);
  });

  it.each(['gzip', 'br', 'deflate', 'GZIP', 'identity, gzip'])(
    'refuses a JSON body sent with Content-Encoding %s with 415 naming the encoding',
    async (encoding) => {
      const { gateway } = fakeGatewayDeps();
      const headers = {
        authorization: `Bearer ${testKey}`,
        'content-type': json,
        'content-encoding': encoding,
      };
      const error = await refusal(() => gateway.checkBeforeBody(route, headerOf(headers)));
      expect([error?.status, error?.code, error?.headers['accept-encoding']]).toEqual([
        415,
        'unsupported_content_encoding',
        'identity',
      ]);
      expect(error?.message).toContain(`Content-Encoding '${encoding}'`);
    },
  );

  it.each(['identity', 'Identity ', ''])(
    'takes a body with Content-Encoding %j, which is no coding',
    async (encoding) => {
      const { gateway } = fakeGatewayDeps();
      const identity = gateway.checkBeforeBody(
        route,
        headerOf({
          authorization: `Bearer ${testKey}`,
          'content-type': json,
          'content-encoding': encoding,
        }),
      );
      expect(await identity).toEqual({ name: 'key-1' });
    },
  );

  it('checks the key before the encoding: 401 for a compressed body without a key', async () => {
    const { gateway } = fakeGatewayDeps();
    const error = await refusal(() =>
      gateway.checkBeforeBody(
        route,
        headerOf({ 'content-type': json, 'content-encoding': 'gzip' }),
      ),
    );
    expect(error?.status).toBe(401);
  });

  it('hands back the identity of a valid key, at once when the key store answers at once', async () => {
    const keys = countingKeys(false);
    const { gateway } = fakeGatewayDeps({ keyStore: keys });
    const identity = gateway.checkBeforeBody(
      route,
      headerOf({ authorization: `Bearer ${testKey}`, 'content-type': json }),
    );
    expect(identity).not.toBeInstanceOf(Promise);
    expect(identity).toEqual({ name: 'key-1' });
  });

  it('waits for a key store that waits, and rejects with 401 for a wrong key', async () => {
    const { gateway } = fakeGatewayDeps({ keyStore: countingKeys(true) });
    const checked = gateway.checkBeforeBody(
      route,
      headerOf({ authorization: `Bearer ${testKey}`, 'content-type': json }),
    );
    expect(checked).toBeInstanceOf(Promise);
    expect(await checked).toEqual({ name: 'key-1' });
    const error = await refusal(() =>
      gateway.checkBeforeBody(
        route,
        headerOf({ authorization: 'Bearer sk-wrong', 'content-type': json }),
      ),
    );
    expect(error?.status).toBe(401);
  });

  it('refuses with 503 and Retry-After while the admission cap is full, before looking at the key', async () => {
    const keys = countingKeys(false);
    const { gateway } = fakeGatewayDeps({
      keyStore: keys,
      file: { limits: { max_concurrent_requests: 1 } },
    });
    expect(gateway.admission.tryAcquire()).toBe(true);
    const error = await refusal(() =>
      gateway.checkBeforeBody(route, headerOf({ 'content-type': json })),
    );
    expect(error?.status).toBe(503);
    expect(error?.headers['retry-after']).toBe('1');
    expect(keys.calls).toBe(0);
    // Only looked at: the slot is taken by dispatch, once the body is read.
    expect(gateway.admission.inUse).toBe(1);
  });

  it('asks nothing of a route that needs no key and takes no body', async () => {
    const { gateway } = fakeGatewayDeps();
    expect(
      gateway.checkBeforeBody(
        chatRoute(okHandler, { method: 'GET', path: '/healthz', auth: false, bodyLimit: 'none' }),
        headerOf({}),
      ),
    ).toBeUndefined();
  });

  it('is the key check dispatch makes: given its identity, dispatch verifies the key no second time', async () => {
    const keys = countingKeys(false);
    const { gateway } = fakeGatewayDeps({ keyStore: keys });
    const handler = vi.fn(okHandler);
    const headers = { authorization: `Bearer ${testKey}`, 'content-type': json };
    const identity = await gateway.checkBeforeBody(chatRoute(handler), headerOf(headers));
    const result = await gateway.dispatch(
      chatRoute(handler),
      handlerInput({ method: 'POST', headers, body: '{}' }),
      identity,
    );
    expect(result.status).toBe(200);
    expect(keys.calls).toBe(1);
    expect(handler.mock.calls[0]?.[1].identity).toEqual({ name: 'key-1' });
    expect(result.meta.keyName).toBe('key-1');
  });
});

describe('requestToken: the key of a request', () => {
  const messages = { ...route, path: '/v1/messages', envelope: 'anthropic' as const };

  it('takes x-api-key beside Bearer on the Messages API routes only', () => {
    expect(requestToken(messages, headerOf({ 'x-api-key': testKey }))).toBe(testKey);
    expect(requestToken(messages, headerOf({ authorization: `Bearer ${testKey}` }))).toBe(testKey);
    expect(
      requestToken(
        messages,
        headerOf({ authorization: `Bearer ${testKey}`, 'x-api-key': testKey }),
      ),
    ).toBe(testKey);
    expect(requestToken(route, headerOf({ 'x-api-key': testKey }))).toBeUndefined();
  });

  it('refuses two different keys (400 multiple_authorization) rather than pick one', async () => {
    const error = await refusal(() =>
      requestToken(messages, headerOf({ authorization: 'Bearer one', 'x-api-key': 'two' })),
    );
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('multiple_authorization');
  });
});
