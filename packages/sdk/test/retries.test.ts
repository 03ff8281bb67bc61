/// <reference types="node" />
import { afterEach, describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  BadRequestError,
  InternalServerError,
  RateLimitError,
  createClient,
  type ChatCompletionChunk,
} from '../src/index.js';
import { sendJson, startTestUpstream, type TestUpstream } from './start-test-upstream.js';

const overloaded = {
  error: {
    message: 'The gateway is at capacity; retry shortly.',
    type: 'server_error',
    param: null,
    code: 'overloaded',
  },
};
const tokenized = { count: 2, max_model_len: 262_144, tokens: [1, 2], token_strs: null };
const tokenizeParams = { model: 'alpha36-35b-a3b-instruct', prompt: 'hi' };

let upstream: TestUpstream | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

function clientFor(server: TestUpstream, options: { maxRetries?: number; timeout?: number } = {}) {
  return createClient({ baseURL: `${server.url}/`, apiKey: 'test-key', ...options });
}

function chunk(content: string): ChatCompletionChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  };
}

describe('retries', () => {
  it('retries two 503s and returns the third answer, in three attempts', async () => {
    upstream = await startTestUpstream((attempt, _request, response) => {
      if (attempt <= 2) sendJson(response, 503, overloaded, { 'retry-after': '0' });
      else sendJson(response, 200, tokenized);
    });
    const result = await clientFor(upstream).tokenize(tokenizeParams);
    expect(result).toEqual(tokenized);
    expect(upstream.requests).toHaveLength(3);
    // Each attempt is the same request, key and body included.
    for (const request of upstream.requests) {
      expect(request).toMatchObject({
        method: 'POST',
        url: '/tokenize',
        body: JSON.stringify(tokenizeParams),
      });
      expect(request.headers).toMatchObject({
        authorization: 'Bearer test-key',
        'content-type': 'application/json',
        accept: 'application/json',
      });
    }
  });

  it('gives up after maxRetries and throws the last error', async () => {
    upstream = await startTestUpstream((_attempt, _request, response) =>
      sendJson(response, 503, overloaded, { 'retry-after-ms': '0', 'x-request-id': 'req-503' }),
    );
    const error = await clientFor(upstream, { maxRetries: 1 })
      .tokenize(tokenizeParams)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, code: 'overloaded', requestId: 'req-503' });
    expect(upstream.requests).toHaveLength(2);
  });

  it('retries 429, 502 and 504 too', async () => {
    const statuses = [429, 502, 504];
    upstream = await startTestUpstream((attempt, _request, response) => {
      const status = statuses[attempt - 1];
      if (status === undefined) sendJson(response, 200, tokenized);
      else sendJson(response, status, overloaded, { 'retry-after': '0' });
    });
    await expect(clientFor(upstream, { maxRetries: 3 }).tokenize(tokenizeParams)).resolves.toEqual(
      tokenized,
    );
    expect(upstream.requests).toHaveLength(4);
  });

  it('throws RateLimitError once 429s use up the retries', async () => {
    upstream = await startTestUpstream((_attempt, _request, response) =>
      sendJson(
        response,
        429,
        {
          error: {
            message: 'slow down',
            type: 'rate_limit_error',
            param: null,
            code: 'rate_limit_exceeded',
          },
        },
        { 'retry-after': '0' },
      ),
    );
    await expect(clientFor(upstream).tokenize(tokenizeParams)).rejects.toBeInstanceOf(
      RateLimitError,
    );
    expect(upstream.requests).toHaveLength(3);
  });

  it('does not retry a 429 that says not to (a spent budget)', async () => {
    upstream = await startTestUpstream((_attempt, _request, response) =>
      sendJson(
        response,
        429,
        {
          error: {
            message: 'Budget of 5 USD per day reached for this API key',
            type: 'rate_limit_error',
            param: null,
            code: 'budget_exceeded',
          },
        },
        { 'retry-after': '3600', 'x-should-retry': 'false' },
      ),
    );
    await expect(clientFor(upstream).tokenize(tokenizeParams)).rejects.toMatchObject({
      status: 429,
      code: 'budget_exceeded',
    });
    expect(upstream.requests).toHaveLength(1);
  });

  it('does not retry 400 or 500', async () => {
    upstream = await startTestUpstream((attempt, _request, response) =>
      sendJson(response, attempt === 1 ? 400 : 500, {
        error: {
          message: 'no',
          type: 'invalid_request_error',
          param: 'prompt',
          code: 'invalid_parameter',
        },
      }),
    );
    const client = clientFor(upstream);
    await expect(client.tokenize(tokenizeParams)).rejects.toBeInstanceOf(BadRequestError);
    expect(upstream.requests).toHaveLength(1);
    await expect(client.tokenize(tokenizeParams)).rejects.toBeInstanceOf(InternalServerError);
    expect(upstream.requests).toHaveLength(2);
  });

  it('retries a connection reset before any answer', async () => {
    upstream = await startTestUpstream((attempt, request, response) => {
      if (attempt <= 2) request.socket.destroy();
      else sendJson(response, 200, tokenized);
    });
    await expect(clientFor(upstream).tokenize(tokenizeParams)).resolves.toEqual(tokenized);
    expect(upstream.requests).toHaveLength(3);
  });

  it('throws APIConnectionError when the connection keeps failing', async () => {
    upstream = await startTestUpstream((_attempt, request) => request.socket.destroy());
    const error = await clientFor(upstream, { maxRetries: 1 })
      .tokenize(tokenizeParams)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APITimeoutError);
    expect(upstream.requests).toHaveLength(2);
  });

  it('throws APITimeoutError when no answer comes within the timeout, after retrying', async () => {
    upstream = await startTestUpstream(() => undefined);
    const error = await clientFor(upstream, { timeout: 50, maxRetries: 1 })
      .tokenize(tokenizeParams)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(upstream.requests).toHaveLength(2);
  });

  it('stops waiting for a retry when the caller aborts', async () => {
    const controller = new AbortController();
    upstream = await startTestUpstream((_attempt, _request, response) => {
      // A long Retry-After: only the abort can end the wait.
      sendJson(response, 503, overloaded, { 'retry-after': '30' });
      setImmediate(() => controller.abort());
    });
    const error = await clientFor(upstream)
      .tokenize(tokenizeParams, { signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(upstream.requests).toHaveLength(1);
  });

  it('retries a stream request that fails before it starts', async () => {
    upstream = await startTestUpstream((attempt, _request, response) => {
      if (attempt <= 2) {
        sendJson(response, 503, overloaded, { 'retry-after': '0' });
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`data: ${JSON.stringify(chunk('hello'))}\n\ndata: [DONE]\n\n`);
    });
    const stream = await clientFor(upstream).chat.completions.create({
      model: 'general-std',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    expect(await stream.finalText()).toBe('hello');
    expect(upstream.requests).toHaveLength(3);
    expect(upstream.requests[2]?.headers.accept).toBe('text/event-stream');
  });

  it('never retries once a stream has delivered events, and reports the break', async () => {
    upstream = await startTestUpstream((_attempt, request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${JSON.stringify(chunk('first'))}\n\n`, () =>
        setTimeout(() => request.socket.destroy(), 20),
      );
    });
    const stream = await clientFor(upstream).chat.completions.create({
      model: 'general-std',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const received: string[] = [];
    const error = await (async () => {
      for await (const event of stream) received.push(event.choices[0]?.delta.content ?? '');
    })().catch((caught: unknown) => caught);
    expect(received).toEqual(['first']);
    expect(error).toBeInstanceOf(APIConnectionError);
    // collect() afterwards reports the same failure, not the partial text as if it were complete.
    await expect(stream.collect()).rejects.toBe(error);
    expect(upstream.requests).toHaveLength(1);
  });

  it('reports a stream that closes cleanly before [DONE] as broken off', async () => {
    upstream = await startTestUpstream((_attempt, _request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`data: ${JSON.stringify(chunk('partial'))}\n\n`);
    });
    const stream = await clientFor(upstream).chat.completions.create({
      model: 'general-std',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    await expect(stream.collect()).rejects.toBeInstanceOf(APIConnectionError);
    expect(upstream.requests).toHaveLength(1);
  });
});
