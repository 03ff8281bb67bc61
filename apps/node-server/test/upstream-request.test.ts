import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ContractClient,
  startRecordingUpstream,
  upstreamsServingEverything,
  type RecordingUpstream,
} from '@infergate/testkit';
import { startNodeGateway, type NodeGateway } from './start-node-gateway.js';

// Every catalogue model is served under another name upstream, so the test sees the mapping.
const served = (id: string): string => `served-${id}`;
const upstreamKey = 'upstream-secret-key-0123456789';
const messages = [{ role: 'user', content: 'Hello' }];

type Json = Record<string, unknown>;

describe('the exact upstream request (recording upstream)', () => {
  let upstream: RecordingUpstream;
  let gateway: NodeGateway;
  let client: ContractClient;

  beforeAll(async () => {
    upstream = await startRecordingUpstream();
    const upstreams = upstreamsServingEverything(upstream.url, served).map((entry) => ({
      ...entry,
      api_key: upstreamKey,
    }));
    gateway = await startNodeGateway({ upstreams });
    client = new ContractClient(gateway);
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  beforeEach(() => upstream.clear());

  const onlyCall = (path: string): Json => {
    const calls = upstream.requestsTo(path);
    expect(calls).toHaveLength(1);
    return calls[0]?.body as Json;
  };

  it('resolves a virtual id, maps the upstream model name, and answers with the catalogue id', async () => {
    const reply = await client.postJson(
      '/v1/chat/completions',
      { model: 'general-std', messages },
      { headers: { 'x-request-id': 'trace-virtual-1' } },
    );
    expect(reply.status, reply.text).toBe(200);
    expect((reply.json as Json).model).toBe('alpha36-35b-a3b-instruct');
    const [call] = upstream.requestsTo('/v1/chat/completions');
    expect(call?.method).toBe('POST');
    expect((call?.body as Json).model).toBe('served-alpha36-35b-a3b-instruct');
    expect((call?.body as Json).messages).toEqual(messages);
    // The upstream gets its own key and the request id, never the client's key.
    expect(call?.headers.authorization).toBe(`Bearer ${upstreamKey}`);
    expect(call?.headers['x-request-id']).toBe('trace-virtual-1');
    expect(JSON.stringify(call?.headers)).not.toContain(gateway.apiKey);
  });

  it('sends the beta53 variants fixed clear_thinking and reasoning_effort in chat_template_kwargs', async () => {
    const cases = [
      ['beta53-flash-chat', undefined, { clear_thinking: true, reasoning_effort: 'max' }],
      ['beta53-flash-chat', 'high', { clear_thinking: true, reasoning_effort: 'high' }],
      ['beta53-flash-agent', 'low', { clear_thinking: false, reasoning_effort: 'low' }],
      ['beta53-flash-chat-low', undefined, { clear_thinking: true, reasoning_effort: 'low' }],
      ['coding-max', 'low', { clear_thinking: false, reasoning_effort: 'low' }],
    ] as const;
    for (const [model, effort, kwargs] of cases) {
      upstream.clear();
      const reply = await client.postJson('/v1/chat/completions', {
        model,
        messages,
        ...(effort ? { reasoning_effort: effort } : {}),
      });
      expect(reply.status, reply.text).toBe(200);
      const body = onlyCall('/v1/chat/completions');
      expect(body.chat_template_kwargs, model).toMatchObject(kwargs);
    }
  });

  it('forwards the extra sampling parameters top-level on full-control models', async () => {
    const sampling = {
      temperature: 0.3,
      top_p: 0.8,
      top_k: 20,
      min_p: 0.1,
      repetition_penalty: 1.2,
      stop_token_ids: [7],
      bad_words: ['x'],
      min_tokens: 2,
      max_tokens: 50,
    };
    const reply = await client.postJson('/v1/chat/completions', {
      model: 'alpha35-122b-a10b-thinking-general',
      messages,
      ...sampling,
    });
    expect(reply.status, reply.text).toBe(200);
    expect(onlyCall('/v1/chat/completions')).toMatchObject({
      model: 'served-alpha35-122b-a10b-thinking-general',
      ...sampling,
    });
  });

  it('drops sampling parameters on backend-enforced models and names them in x-infergate-ignored-params', async () => {
    for (const model of [
      'alpha35-122b-a10b-instruct-creative',
      'alpha35-122b-a10b-thinking-coding',
      'coding-std-thinking',
    ]) {
      upstream.clear();
      const reply = await client.postJson('/v1/chat/completions', {
        model,
        messages,
        temperature: 1.5,
        top_p: 0.5,
        top_k: 3,
        max_tokens: 40,
      });
      expect(reply.status, reply.text).toBe(200);
      const ignored = (reply.headers.get('x-infergate-ignored-params') ?? '')
        .split(',')
        .map((name) => name.trim());
      expect(ignored).toEqual(expect.arrayContaining(['temperature', 'top_p', 'top_k']));
      const body = onlyCall('/v1/chat/completions');
      expect(body.temperature).toBeUndefined();
      expect(body.top_p).toBeUndefined();
      expect(body.top_k).toBeUndefined();
      expect(body.max_tokens).toBe(40);
    }
  });

  it('turns a responses request into an upstream chat request with the mapped model', async () => {
    const reply = await client.postJson('/v1/responses', {
      model: 'general-pro',
      input: 'Hi there',
      max_tokens: 30,
    });
    expect(reply.status, reply.text).toBe(200);
    const body = onlyCall('/v1/chat/completions');
    expect(body.model).toBe('served-alpha35-122b-a10b-instruct-general');
    expect(JSON.stringify(body.messages)).toContain('Hi there');
    expect((reply.json as Json).output_text).toBe(
      'Hello from served-alpha35-122b-a10b-instruct-general.',
    );
  });

  it('maps image quality before the upstream call', async () => {
    for (const [quality, mapped] of [
      ['hd', 'high'],
      ['standard', 'medium'],
      ['auto', 'medium'],
      ['low', 'low'],
    ] as const) {
      upstream.clear();
      const reply = await client.postJson('/v1/images/generations', {
        model: 'alpha-image',
        prompt: 'a boat',
        output_format: 'webp',
        quality,
        size: '512x512',
      });
      expect(reply.status, reply.text).toBe(200);
      expect(onlyCall('/v1/images/generations')).toMatchObject({
        model: 'served-alpha-image',
        prompt: 'a boat',
        quality: mapped,
        size: '512x512',
        output_format: 'webp',
      });
    }
  });

  it('makes the two calls of a -pe image request: the text model rewrites the prompt, the image model draws it', async () => {
    const reply = await client.postJson('/v1/images/generations', {
      model: 'image-pro',
      prompt: 'a lighthouse',
      output_format: 'png',
      quality: 'hd',
      size: '256x256',
    });
    expect(reply.status, reply.text).toBe(200);
    const [first, second] = upstream.requests;
    expect(upstream.requests).toHaveLength(2);
    expect(first?.path).toBe('/v1/chat/completions');
    // The spec's 122B text model of the catalogue does the enhancement.
    expect((first?.body as Json).model).toBe('served-alpha35-122b-a10b-instruct-general');
    expect(JSON.stringify((first?.body as Json).messages)).toContain('a lighthouse');
    expect(second?.path).toBe('/v1/images/generations');
    expect(second?.body).toMatchObject({
      model: 'served-alpha-image-pe',
      quality: 'high',
      size: '256x256',
    });
    // The enhanced prompt is what the text model answered.
    expect((second?.body as Json).prompt).toBe(
      'Hello from served-alpha35-122b-a10b-instruct-general.',
    );
  });

  it('makes the two calls of a -pe image edit', async () => {
    const { pngDataUrl } = await import('@infergate/testkit');
    const reply = await client.postJson('/v1/images/edits', {
      model: 'alpha-image-edit-pe',
      prompt: 'make it red',
      images: [{ image_url: pngDataUrl }],
      output_format: 'png',
      quality: 'low',
      size: '64x64',
    });
    expect(reply.status, reply.text).toBe(200);
    expect(upstream.requests.map((request) => request.path)).toEqual([
      '/v1/chat/completions',
      '/v1/images/edits',
    ]);
    expect((upstream.requests[1]?.body as Json).model).toBe('served-alpha-image-edit-pe');
  });

  it('maps the model on embeddings, tokenize, compat embed and rerank', async () => {
    expect(
      (await client.postJson('/v1/embeddings', { model: 'gamma-m3', input: 'hi' })).status,
    ).toBe(200);
    expect(onlyCall('/v1/embeddings')).toMatchObject({ model: 'served-gamma-m3' });
    upstream.clear();
    expect(
      (await client.postJson('/tokenize', { model: 'general-max', prompt: 'count me' })).status,
    ).toBe(200);
    expect(onlyCall('/tokenize')).toMatchObject({
      model: 'served-beta53-flash-chat-low',
      prompt: 'count me',
    });
    upstream.clear();
    const rerank = await client.postJson('/compat/v2/rerank', {
      model: 'gamma-reranker-v2-m3',
      query: 'q',
      documents: ['a', 'b'],
      top_n: 1,
    });
    expect(rerank.status, rerank.text).toBe(200);
    expect(onlyCall('/v2/rerank')).toMatchObject({
      model: 'served-gamma-reranker-v2-m3',
      query: 'q',
      documents: ['a', 'b'],
      top_n: 1,
    });
    upstream.clear();
    const embed = await client.postJson('/compat/v2/embed', {
      model: 'alpha3-vl-embedding-8b',
      inputs: [{ content: [{ type: 'text', text: 'doc' }] }],
      input_type: 'search_document',
      output_dimension: 256,
    });
    expect(embed.status, embed.text).toBe(200);
    expect(upstream.requests).toHaveLength(1);
    expect((upstream.requests[0]?.body as Json).model).toBe('served-alpha3-vl-embedding-8b');
  });

  it('sends nothing upstream for requests the gateway refuses', async () => {
    await client.postJson('/v1/chat/completions', {
      model: 'general-std',
      messages,
      chat_template: '{{ evil }}',
    });
    await client.postJson('/v1/chat/completions', { model: 'gamma-m3', messages });
    await client.postJson('/v1/chat/completions', '{"model":');
    await client.postJson('/v1/embeddings', { model: 'gamma-m3', input: 'x' }, { anonymous: true });
    expect(upstream.requests).toHaveLength(0);
  });
});
