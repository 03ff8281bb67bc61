import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSseText } from '../src/read-sse.js';
import { startRecordingUpstream, type RecordingUpstream } from '../src/start-recording-upstream.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../src/start-scripted-upstream.js';

const chatBody = (model: string, stream = false): string =>
  JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], stream });

describe('startRecordingUpstream', () => {
  let upstream: RecordingUpstream;
  beforeAll(async () => {
    upstream = await startRecordingUpstream();
  });
  afterAll(async () => upstream?.close());

  it('records the request and answers a vLLM chat completion', async () => {
    const response = await fetch(`${upstream.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'r-1' },
      body: chatBody('m-1'),
    });
    const body = (await response.json()) as {
      object: string;
      model: string;
      choices: { message: { content: string } }[];
    };
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0]?.message.content).toBe('Hello from m-1.');
    const [recorded] = upstream.requestsTo('/v1/chat/completions');
    expect(recorded?.headers['x-request-id']).toBe('r-1');
    expect(recorded?.body).toMatchObject({ model: 'm-1' });
    await recorded?.closed;
    expect(recorded?.aborted).toBe(false);
  });

  it('streams vLLM chunks ending with [DONE]', async () => {
    const text = await (
      await fetch(`${upstream.url}/v1/chat/completions`, {
        method: 'POST',
        body: chatBody('m-2', true),
      })
    ).text();
    const events = parseSseText(text);
    expect(events.at(-1)?.data).toBe('[DONE]');
    expect(JSON.parse(events[0]?.data ?? '{}')).toMatchObject({ object: 'chat.completion.chunk' });
  });
});

describe('startScriptedUpstream', () => {
  let upstream: ScriptedUpstream;
  beforeAll(async () => {
    upstream = await startScriptedUpstream();
  });
  afterAll(async () => upstream?.close());

  it('answers status scripts with Retry-After on 429', async () => {
    const response = await fetch(`${upstream.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-test-script': 'status:429' },
      body: chatBody('x'),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    await response.body?.cancel();
  });

  it('stalls after k chunks and records the abort', async () => {
    upstream.scriptForRequest('stall-1', 'stall-after:2');
    const controller = new AbortController();
    const response = await fetch(`${upstream.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-request-id': 'stall-1' },
      body: chatBody('x', true),
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (parseSseText(text).length < 2)
      text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const recorded = await upstream.waitForRequest(
      (request) => request.headers['x-request-id'] === 'stall-1',
    );
    await recorded.closed;
    expect(recorded.aborted).toBe(true);
    expect(recorded.script).toBe('stall-after:2');
  });

  it('maps a fresh request id to each script given to scripted()', async () => {
    const refused = upstream.scripted('status:503');
    const served = upstream.scripted('ok:1:0');
    expect(refused.requestId).not.toBe(served.requestId);
    const first = await fetch(`${upstream.url}/v1/chat/completions`, {
      method: 'POST',
      headers: refused.headers,
      body: chatBody('x'),
    });
    const second = await fetch(`${upstream.url}/v1/chat/completions`, {
      method: 'POST',
      headers: served.headers,
      body: chatBody('x'),
    });
    expect([first.status, second.status]).toEqual([503, 200]);
    await Promise.all([first.body?.cancel(), second.body?.cancel()]);
  });

  it('resets mid-stream, and fails then succeeds per request id', async () => {
    const reset = await fetch(`${upstream.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-test-script': 'reset-after:1' },
      body: chatBody('x', true),
    });
    await expect(reset.text()).rejects.toThrow();
    const first = fetch(`${upstream.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-test-script': 'fail-then-ok', 'x-request-id': 'ft-1' },
      body: chatBody('x'),
    });
    await expect(first).rejects.toThrow();
    const second = await fetch(`${upstream.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-test-script': 'fail-then-ok', 'x-request-id': 'ft-1' },
      body: chatBody('x'),
    });
    expect(second.status).toBe(200);
    await second.body?.cancel();
  });

  it('takes the script from the model name', async () => {
    const response = await fetch(`${upstream.url}/v1/embeddings`, {
      method: 'POST',
      body: JSON.stringify({ model: 'status:418:empty', input: 'x' }),
    });
    expect(response.status).toBe(418);
    await response.body?.cancel();
  });
});
