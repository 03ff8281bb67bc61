/// <reference types="node" />
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, decodeBase64Embedding, type InfergateClient } from '../src/index.js';
import { localGatewayConfig, startGateway, testKey, type RunningGateway } from './start-gateway.js';

let gateway: RunningGateway;
let client: InfergateClient;

beforeAll(async () => {
  gateway = await startGateway(localGatewayConfig);
  client = createClient({ baseURL: gateway.url, apiKey: testKey });
});
afterAll(() => gateway.close());

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function bytesOf(base64: string): number[] {
  return Array.from(atob(base64), (char) => char.charCodeAt(0));
}

describe('chat.completions.create', () => {
  it('returns the spec’s chat completion object, with a virtual id resolved to its catalogue id', async () => {
    const completion = await client.chat.completions.create({
      model: 'general-std',
      messages: [{ role: 'user', content: 'Say hello.' }],
      max_tokens: 32,
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.model).toBe('alpha36-35b-a3b-instruct');
    const choice = completion.choices[0];
    expect(choice?.message.role).toBe('assistant');
    expect(choice?.message.content).toEqual(expect.stringMatching(/\S/));
    expect(completion.usage.total_tokens).toBe(
      completion.usage.prompt_tokens + completion.usage.completion_tokens,
    );
  });
});

describe('responses.create', () => {
  it('returns the text form with output_text and usage', async () => {
    const response = await client.responses.create({
      model: 'general-pro',
      input: 'Write one short sentence.',
    });
    if (response.object !== 'response')
      throw new Error(`expected the text form, got ${response.object}`);
    expect(response.id).toMatch(/^resp_/);
    expect(response.status).toBe('completed');
    expect(response.model).toBe('alpha35-122b-a10b-instruct-general');
    expect(response.output_text).toEqual(expect.stringMatching(/\S/));
    const message = response.output.find((item) => item.type === 'message');
    expect(message).toMatchObject({
      role: 'assistant',
      content: [{ type: 'output_text', text: response.output_text }],
    });
    expect(response.usage?.total_tokens).toBe(
      (response.usage?.input_tokens ?? 0) + (response.usage?.output_tokens ?? 0),
    );
  });
});

describe('embeddings.create', () => {
  it('returns float vectors of gamma-m3’s 1024 dimensions, one per input', async () => {
    const result = await client.embeddings.create({
      model: 'gamma-m3',
      input: ['a red bicycle', 'a blue car'],
    });
    expect(result.object).toBe('list');
    expect(result.data.map((item) => [item.index, item.object, item.embedding.length])).toEqual([
      [0, 'embedding', 1024],
      [1, 'embedding', 1024],
    ]);
  });

  it('returns base64 that decodeBase64Embedding turns back into the same float32 vector', async () => {
    const input = 'the same text twice';
    const floats = await client.embeddings.create({
      model: 'alpha3-vl-embedding-8b',
      input,
      dimensions: 256,
    });
    const base64 = await client.embeddings.create({
      model: 'alpha3-vl-embedding-8b',
      input,
      dimensions: 256,
      encoding_format: 'base64',
    });
    const encoded = base64.data[0]?.embedding;
    expect(typeof encoded).toBe('string');
    const decoded = Array.from(decodeBase64Embedding(encoded ?? ''));
    expect(decoded).toHaveLength(256);
    expect(decoded).toEqual(floats.data[0]?.embedding.map((value) => Math.fround(value)));
  });
});

describe('compat.embed', () => {
  it('returns the compat-style response with the requested dimension', async () => {
    const result = await client.compat.embed({
      model: 'alpha3-vl-embedding-8b',
      input_type: 'search_document',
      output_dimension: 256,
      inputs: [
        { content: [{ type: 'text', text: 'a red bicycle' }] },
        { content: [{ type: 'text', text: 'a quiet lake' }] },
      ],
    });
    expect(result.embeddings.float?.map((vector) => vector.length)).toEqual([256, 256]);
    expect(result.texts).toEqual(['a red bicycle', 'a quiet lake']);
    expect(result.meta.api_version).toMatchObject({ version: '2', is_experimental: true });
    expect(result.meta.billed_units.input_tokens).toBeGreaterThan(0);
  });
});

describe('compat.rerank', () => {
  it('orders documents most relevant first and keeps top_n', async () => {
    const documents = [
      'Bananas are yellow fruit.',
      'Paris is the capital of France.',
      'The capital city of Italy is Rome.',
    ];
    const result = await client.compat.rerank({
      model: 'gamma-reranker-v2-m3',
      query: 'What is the capital of France?',
      documents,
      top_n: 2,
    });
    expect(result.results).toHaveLength(2);
    expect(result.results[0]?.index).toBe(1);
    const scores = result.results.map((item) => item.relevance_score);
    expect(scores).toEqual([...scores].sort((left, right) => right - left));
  });
});

describe('images', () => {
  it('generates a PNG, edits it into a WebP, and a text model reads it in the image-input form', async () => {
    const generated = await client.images.generate({
      model: 'alpha-image',
      prompt: 'a lighthouse at dusk',
      size: '64x48',
      quality: 'low',
      output_format: 'png',
    });
    expect(generated).toMatchObject({ size: '64x48', output_format: 'png', quality: 'low' });
    const png = generated.data[0]?.b64_json ?? '';
    expect(bytesOf(png).slice(0, 8)).toEqual(pngSignature);

    const edited = await client.images.edit({
      model: 'image-pro-edit',
      prompt: 'make it night',
      images: [{ image_url: `data:image/png;base64,${png}` }],
      size: '32x32',
      quality: 'hd',
      output_format: 'webp',
    });
    expect(edited).toMatchObject({ size: '32x32', output_format: 'webp' });
    const webp = bytesOf(edited.data[0]?.b64_json ?? '');
    expect(String.fromCharCode(...webp.slice(0, 4), ...webp.slice(8, 12))).toBe('RIFFWEBP');

    const described = await client.responses.create({
      model: 'alpha36-35b-a3b-instruct',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Describe this image.' },
            { type: 'input_image', image_url: `data:image/png;base64,${png}` },
          ],
        },
      ],
    });
    if (described.object !== 'responses')
      throw new Error(`expected the image-input form, got ${described.object}`);
    expect(described.output[0]?.content).toMatchObject({
      type: 'output_text',
      text: expect.stringMatching(/\S/),
    });
  });
});

describe('tokenize', () => {
  it('counts tokens and reports the model’s context window', async () => {
    const small = await client.tokenize({
      model: 'general-std',
      prompt: 'How many tokens is this?',
    });
    expect(small.count).toBe(small.tokens.length);
    expect(small.count).toBeGreaterThan(1);
    expect(small.max_model_len).toBe(262_144);
    expect(small.token_strs).toBeNull();
    const large = await client.tokenize({ model: 'beta53-flash-chat', prompt: 'x' });
    expect(large.max_model_len).toBe(1_048_576);
  });
});

describe('models.list', () => {
  it('lists catalogue and virtual models', async () => {
    const list = await client.models.list();
    expect(list.object).toBe('list');
    expect(list.data.find((model) => model.id === 'gamma-m3')).toMatchObject({
      object: 'model',
      kind: 'embedding',
      context_window: 8192,
    });
    expect(list.data.find((model) => model.id === 'coding-max')).toMatchObject({
      maps_to: 'beta53-flash-agent-low',
    });
  });
});

describe('pricing.get', () => {
  it('returns the configured prices', async () => {
    const prices = await client.pricing.get();
    expect(prices).toEqual({
      object: 'list',
      data: [
        {
          model: 'alpha36-35b-a3b-instruct',
          input_per_million: 0.1,
          output_per_million: 0.4,
          currency: 'USD',
        },
      ],
    });
  });
});
