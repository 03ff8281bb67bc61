import OpenAI, { PermissionDeniedError, RateLimitError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecordingUpstream, type RecordingUpstream } from '@infergate/testkit';
import { startLimitedReplicas, type LimitedReplica } from './start-limited-replicas.js';

/*
 * Key limits through the official openai client: the allow-list's 403, the rate-limit headers on every
 * response of a limited key, and the 429 as its RateLimitError. One replica, in-memory limits.
 */

const keys = [
  // The example, with a requests limit small enough to reach.
  {
    key: 'key-team-a-0123456',
    name: 'team-a',
    models: ['general-std', 'gamma-m3'],
    limits: { requests_per_minute: 3, tokens_per_minute: 200000, concurrent_requests: 20 },
  },
];

let upstream: RecordingUpstream;
let gateway: LimitedReplica;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  [gateway] = (await startLimitedReplicas({ upstreamUrl: upstream.url, keys, count: 1 })) as [
    LimitedReplica,
  ];
  client = new OpenAI({
    baseURL: `${gateway.baseUrl}/v1`,
    apiKey: 'key-team-a-0123456',
    maxRetries: 0,
  });
});

afterAll(async () => {
  await gateway?.server.close(200);
  await upstream?.close();
});

describe('key limits through the official openai client', () => {
  it("refuses a model outside the key's allow-list with 403 (PermissionDeniedError), a virtual id on it is served", async () => {
    const refused = await client.chat.completions
      .create({
        model: 'alpha35-122b-a10b-instruct-general',
        messages: [{ role: 'user', content: 'hi' }],
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PermissionDeniedError);
    expect((refused as PermissionDeniedError).status).toBe(403);
    expect((refused as PermissionDeniedError).code).toBe('model_not_allowed');
  });

  it('sends the rate-limit headers on every response, and answers past the limit with 429 as RateLimitError with Retry-After', async () => {
    // The 403 above was the first request of the minute.
    const { data, response } = await client.chat.completions
      .create({ model: 'general-std', messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 })
      .withResponse();
    expect(data.model).toBe('alpha36-35b-a3b-instruct');
    expect(response.headers.get('x-ratelimit-limit-requests')).toBe('3');
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('1');
    expect(response.headers.get('x-ratelimit-reset-requests')).toMatch(
      /^(?:\d+(?:\.\d+)?s|\d+ms|1m0s)$/,
    );
    expect(response.headers.get('x-ratelimit-limit-tokens')).toBe('200000');
    expect(Number(response.headers.get('x-ratelimit-remaining-tokens'))).toBeLessThan(200000);
    expect(response.headers.get('x-ratelimit-reset-tokens')).toBe(
      response.headers.get('x-ratelimit-reset-requests'),
    );

    const embedding = await client.embeddings
      .create({ model: 'gamma-m3', input: 'hello' })
      .withResponse();
    expect(embedding.response.headers.get('x-ratelimit-remaining-requests')).toBe('0');

    const refused = await client.embeddings
      .create({ model: 'gamma-m3', input: 'hello' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitError);
    const error = refused as RateLimitError;
    expect(error.status).toBe(429);
    expect(error.code).toBe('rate_limit_exceeded');
    expect(error.type).toBe('rate_limit_error');
    expect(Number(error.headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(error.headers?.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(error.headers?.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(error.message).toContain('requests per minute');
  });

  it('answers the 429 of a compat route in the compat envelope', async () => {
    const response = await fetch(`${gateway.baseUrl}/compat/v2/embed`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer key-team-a-0123456',
        'content-type': 'application/json',
        'x-request-id': 'req-compat-429',
      },
      body: JSON.stringify({ model: 'gamma-m3', texts: ['hello'], input_type: 'search_document' }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await response.json()).toEqual({
      id: 'req-compat-429',
      message: expect.stringContaining('Rate limit reached'),
    });
  });
});
