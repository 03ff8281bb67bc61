/// <reference types="node" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APITimeoutError,
  AuthenticationError,
  BadRequestError,
  InfergateError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UnprocessableEntityError,
  createClient,
  isInfergateError,
  type InfergateClient,
} from '../src/index.js';
import {
  localGatewayConfig,
  restrictedKey,
  startGateway,
  testKey,
  type RunningGateway,
} from './start-gateway.js';
import { sendJson, startTestUpstream, type TestUpstream } from './start-test-upstream.js';

const hello = [{ role: 'user' as const, content: 'hello' }];

async function failure(promise: Promise<unknown>): Promise<InfergateError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome))
    throw new Error(`expected a failure, got ${JSON.stringify(outcome.value).slice(0, 200)}`);
  if (!isInfergateError(outcome.error)) throw outcome.error;
  return outcome.error;
}

describe('errors the gateway decides itself (local backend)', () => {
  let gateway: RunningGateway;
  let client: InfergateClient;
  beforeAll(async () => {
    gateway = await startGateway(localGatewayConfig);
    client = createClient({ baseURL: gateway.url, apiKey: testKey, maxRetries: 0 });
  });
  afterAll(() => gateway.close());

  it('400 BadRequestError names the field at fault', async () => {
    const error = await failure(
      client.chat.completions.create({ model: 'general-std', messages: hello, temperature: 5 }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
      param: 'temperature',
    });
    expect(error.requestId).toEqual(expect.stringMatching(/\S/));
  });

  it('400 BadRequestError for a model on the wrong endpoint', async () => {
    const error = await failure(
      client.chat.completions.create({ model: 'gamma-m3', messages: hello }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ code: 'model_not_supported', param: 'model' });
  });

  it('401 AuthenticationError for an unknown key', async () => {
    const error = await failure(
      createClient({ baseURL: gateway.url, apiKey: 'not-a-key' }).models.list(),
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, type: 'authentication_error' });
  });

  it('403 PermissionDeniedError for a model the key may not use', async () => {
    const restricted = createClient({ baseURL: gateway.url, apiKey: restrictedKey });
    const error = await failure(
      restricted.chat.completions.create({ model: 'general-std', messages: hello }),
    );
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'model_not_allowed' });
    await expect(
      restricted.embeddings.create({ model: 'gamma-m3', input: 'allowed' }),
    ).resolves.toMatchObject({ object: 'list' });
  });

  it('404 NotFoundError from the native envelope, with the request id the caller sent', async () => {
    const error = await failure(
      client.chat.completions.create(
        { model: 'no-such-model', messages: hello },
        { headers: { 'x-request-id': 'sdk-test-404' } },
      ),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      code: 'model_not_found',
      param: 'model',
      requestId: 'sdk-test-404',
    });
    expect(error.message).toContain('no-such-model');
  });

  it('404 NotFoundError from the compat envelope {id, message}', async () => {
    const error = await failure(
      client.compat.rerank({ model: 'no-such-reranker', query: 'q', documents: ['d'] }),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.body).toEqual({ id: error.requestId, message: error.message });
    expect(error.message).toContain('no-such-reranker');
    expect(error).toMatchObject({ type: null, code: null });
  });

  it('other statuses are a plain InfergateError (413 for a body over the 2 MiB JSON limit)', async () => {
    const error = await failure(
      client.tokenize({ model: 'general-std', prompt: 'x'.repeat(3 * 1024 * 1024) }),
    );
    expect(error.constructor).toBe(InfergateError);
    expect(error).toMatchObject({ status: 413, name: 'InfergateError' });
  });

  it('APIConnectionError when nothing listens at the address', async () => {
    const closed = await startTestUpstream(() => undefined);
    await closed.close();
    const error = await failure(
      createClient({ baseURL: closed.url, apiKey: testKey, maxRetries: 0 }).models.list(),
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.status).toBeUndefined();
  });
});

describe('errors passed on from the upstream (gateway in front of a scripted upstream)', () => {
  let upstream: TestUpstream;
  let gateway: RunningGateway;
  let client: InfergateClient;
  let answer: (response: Parameters<Parameters<typeof startTestUpstream>[0]>[2]) => void = () =>
    undefined;

  beforeAll(async () => {
    upstream = await startTestUpstream((_attempt, _request, response) => answer(response));
    gateway = await startGateway({
      keys: [testKey],
      upstreams: [
        {
          name: 'scripted',
          url: upstream.url,
          protocol: 'openai',
          models: { 'alpha36-35b-a3b-instruct': 'served' },
        },
      ],
    });
    client = createClient({ baseURL: gateway.url, apiKey: testKey, maxRetries: 0 });
  });
  afterAll(async () => {
    await gateway.close();
    await upstream.close();
  });

  const vllmError = (status: number, message: string) => ({
    error: { message, type: 'BadRequestError', param: null, code: status },
  });

  it('422 UnprocessableEntityError', async () => {
    answer = (response) => sendJson(response, 422, vllmError(422, 'unprocessable prompt'));
    const error = await failure(
      client.chat.completions.create({ model: 'general-std', messages: hello }),
    );
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error.status).toBe(422);
  });

  it('429 RateLimitError with the Retry-After the gateway passes on', async () => {
    answer = (response) =>
      sendJson(response, 429, vllmError(429, 'too many requests'), { 'retry-after': '7' });
    const error = await failure(
      client.chat.completions.create({ model: 'general-std', messages: hello }),
    );
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.status).toBe(429);
    expect(error.headers?.get('retry-after')).toBe('7');
  });

  it('5xx InternalServerError when the upstream fails', async () => {
    answer = (response) => sendJson(response, 500, vllmError(500, 'engine crashed'));
    const error = await failure(
      client.chat.completions.create({ model: 'general-std', messages: hello }),
    );
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.status).toBeGreaterThanOrEqual(500);
  });

  it('APITimeoutError when the answer does not come within the timeout', async () => {
    answer = () => undefined;
    const error = await failure(
      client.chat.completions.create({ model: 'general-std', messages: hello }, { timeout: 200 }),
    );
    expect(error).toBeInstanceOf(APITimeoutError);
  });
});
