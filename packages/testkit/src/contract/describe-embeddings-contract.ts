import { describe, expect, it } from 'vitest';
import { asArray, asRecord, type ContractClient } from './contract-client.js';
import { expectCompatError, expectNativeError } from './expect-envelopes.js';
import { pngDataUrl } from './test-images.js';

function expectInteger(value: unknown): void {
  expect(Number.isInteger(value), String(value)).toBe(true);
}

/** Little-endian float32 (what openai-node's decoder reads). */
function decodeFloat32(base64: string): number[] {
  const bytes = Buffer.from(base64, 'base64');
  expect(bytes.length % 4).toBe(0);
  return Array.from({ length: bytes.length / 4 }, (_, index) => bytes.readFloatLE(index * 4));
}

/** Spec "OpenAI-style embedding response". */
function expectEmbeddingList(
  value: unknown,
  model: string,
  count: number,
): Record<string, unknown>[] {
  const body = asRecord(value);
  expect(body.id).toMatch(/^embd-[0-9a-zA-Z]+$/);
  expect(body.object).toBe('list');
  expectInteger(body.created);
  expect(body.model).toBe(model);
  const data = asArray(body.data).map(asRecord);
  expect(data).toHaveLength(count);
  data.forEach((item, index) => {
    expect(item.index).toBe(index);
    expect(item.object).toBe('embedding');
  });
  const usage = asRecord(body.usage);
  expectInteger(usage.prompt_tokens);
  expectInteger(usage.total_tokens);
  expectInteger(usage.completion_tokens);
  return data;
}

export function describeEmbeddingsContract(client: () => ContractClient): void {
  describe('POST /v1/embeddings', () => {
    it('embeds text with gamma-m3 as 1024 floats per input', async () => {
      const reply = await client().postJson('/v1/embeddings', {
        model: 'gamma-m3',
        input: ['the quick brown fox', 'a lazy dog'],
      });
      expect(reply.status, reply.text).toBe(200);
      const data = expectEmbeddingList(reply.json, 'gamma-m3', 2);
      for (const item of data) {
        const vector = asArray(item.embedding);
        expect(vector).toHaveLength(1024);
        expect(vector.every((value) => typeof value === 'number' && Number.isFinite(value))).toBe(
          true,
        );
      }
    });

    it('encodes base64 as little-endian float32 of the same vector', async () => {
      const input = 'the quick brown fox';
      const floats = await client().postJson('/v1/embeddings', {
        model: 'gamma-m3',
        input,
        encoding_format: 'float',
      });
      const base64 = await client().postJson('/v1/embeddings', {
        model: 'gamma-m3',
        input,
        encoding_format: 'base64',
      });
      expect(base64.status, base64.text).toBe(200);
      const floatVector = asArray(
        expectEmbeddingList(floats.json, 'gamma-m3', 1)[0]?.embedding,
      ) as number[];
      const encoded = expectEmbeddingList(base64.json, 'gamma-m3', 1)[0]?.embedding;
      expect(typeof encoded).toBe('string');
      const decoded = decodeFloat32(encoded as string);
      expect(decoded).toHaveLength(1024);
      decoded.forEach((value, index) => expect(value).toBeCloseTo(floatVector[index] as number, 6));
    });

    it('honours dimensions on alpha3-vl-embedding-8b and refuses them on gamma-m3', async () => {
      const reply = await client().postJson('/v1/embeddings', {
        model: 'alpha3-vl-embedding-8b',
        input: 'hello',
        dimensions: 256,
      });
      expect(reply.status, reply.text).toBe(200);
      expect(
        asArray(expectEmbeddingList(reply.json, 'alpha3-vl-embedding-8b', 1)[0]?.embedding),
      ).toHaveLength(256);
      expectNativeError(
        await client().postJson('/v1/embeddings', {
          model: 'gamma-m3',
          input: 'hello',
          dimensions: 256,
        }),
        400,
        { param: 'dimensions' },
      );
    });

    it('refuses a text model with model_not_supported', async () => {
      expectNativeError(
        await client().postJson('/v1/embeddings', {
          model: 'alpha36-35b-a3b-instruct',
          input: 'hello',
        }),
        400,
        {
          code: 'model_not_supported',
          param: 'model',
        },
      );
    });
  });

  describe('POST /compat/v2/embed', () => {
    it('embeds text inputs with the requested dimension in the compat form', async () => {
      const inputs = [
        { content: [{ type: 'text', text: 'first document' }] },
        { content: [{ type: 'text', text: 'second document' }] },
      ];
      const reply = await client().postJson('/compat/v2/embed', {
        model: 'alpha3-vl-embedding-8b',
        inputs,
        input_type: 'search_document',
        output_dimension: 512,
        embedding_types: ['float'],
      });
      expect(reply.status, reply.text).toBe(200);
      const body = asRecord(reply.json);
      expect(typeof body.id).toBe('string');
      expect(body.model).toBe('alpha3-vl-embedding-8b');
      const floats = asArray(asRecord(body.embeddings).float);
      expect(floats).toHaveLength(2);
      for (const vector of floats) expect(asArray(vector)).toHaveLength(512);
      expect(body.texts).toEqual(['first document', 'second document']);
      const meta = asRecord(body.meta);
      expect(asRecord(meta.api_version)).toMatchObject({ version: '2', is_experimental: true });
      const billed = asRecord(meta.billed_units);
      expectInteger(billed.input_tokens);
      expect(asRecord(body.usage).billed_units).toEqual(billed);
    });

    it('embeds an image input and reports its header facts and the images counter', async () => {
      const inputs = [{ content: [{ type: 'image_url', image_url: { url: pngDataUrl } }] }];
      const reply = await client().postJson('/compat/v2/embed', {
        model: 'alpha3-vl-embedding-8b',
        inputs,
        input_type: 'image',
        output_dimension: 256,
      });
      expect(reply.status, reply.text).toBe(200);
      const body = asRecord(reply.json);
      expect(body.texts).toEqual([]);
      const images = asArray(body.images).map(asRecord);
      expect(images).toHaveLength(1);
      expect(images[0]).toMatchObject({ width: 1, height: 1, format: 'png' });
      expectInteger(images[0]?.bit_depth);
      expect(asArray(asRecord(body.embeddings).float)).toHaveLength(1);
      const billed = asRecord(asRecord(body.meta).billed_units);
      expect(billed.images).toBe(1);
      expect(asRecord(body.usage).billed_units).toEqual(billed);
    });

    it('answers errors in the compat envelope: gamma-m3, an unsupported input_type, a dimension off the list', async () => {
      const inputs = [{ content: [{ type: 'text', text: 'x' }] }];
      expectCompatError(
        await client().postJson('/compat/v2/embed', {
          model: 'gamma-m3',
          inputs,
          input_type: 'search_query',
        }),
        400,
      );
      expectCompatError(
        await client().postJson('/compat/v2/embed', {
          model: 'alpha3-vl-embedding-8b',
          inputs,
          input_type: 'classification',
        }),
        400,
      );
      expectCompatError(
        await client().postJson('/compat/v2/embed', {
          model: 'alpha3-vl-embedding-8b',
          inputs,
          input_type: 'search_query',
          output_dimension: 100,
        }),
        400,
      );
      expectCompatError(
        await client().postJson('/compat/v2/embed', {
          model: 'no-such-model',
          inputs,
          input_type: 'search_query',
        }),
        404,
      );
    });
  });

  describe('POST /compat/v2/rerank', () => {
    it('ranks documents most relevant first, cut to top_n', async () => {
      const documents = [
        'Paris is the capital of France.',
        'Bananas are yellow.',
        'The capital of Germany is Berlin.',
      ];
      const reply = await client().postJson(
        '/compat/v2/rerank',
        {
          model: 'gamma-reranker-v2-m3',
          query: 'What is the capital of France?',
          documents,
          top_n: 2,
        },
        { headers: { accept: 'application/json' } },
      );
      expect(reply.status, reply.text).toBe(200);
      const body = asRecord(reply.json);
      expect(typeof body.id).toBe('string');
      const results = asArray(body.results).map(asRecord);
      expect(results).toHaveLength(2);
      for (const result of results) {
        expectInteger(result.index);
        expect(result.index as number).toBeGreaterThanOrEqual(0);
        expect(result.index as number).toBeLessThan(documents.length);
        expect(typeof result.relevance_score).toBe('number');
      }
      expect(results[0]?.relevance_score as number).toBeGreaterThanOrEqual(
        results[1]?.relevance_score as number,
      );
      expect(results[0]?.index).toBe(0);
    });

    it('answers a missing query in the compat envelope', async () => {
      expectCompatError(
        await client().postJson('/compat/v2/rerank', {
          model: 'gamma-reranker-v2-m3',
          documents: ['a'],
        }),
        400,
      );
    });
  });

  describe('POST /tokenize', () => {
    it('counts tokens and reports the context window of the model', async () => {
      for (const [model, window] of [
        ['alpha36-35b-a3b-instruct', 262_144],
        ['beta53-flash-chat', 1_048_576],
        ['gamma-m3', 8_192],
        ['alpha3-vl-embedding-8b', 32_768],
      ] as const) {
        const reply = await client().postJson('/tokenize', {
          model,
          prompt: 'Hello there, how are you today?',
        });
        expect(reply.status, reply.text).toBe(200);
        const body = asRecord(reply.json);
        expect(Object.keys(body).sort()).toEqual([
          'count',
          'max_model_len',
          'token_strs',
          'tokens',
        ]);
        expect(body.max_model_len).toBe(window);
        const tokens = asArray(body.tokens);
        expect(tokens.length).toBeGreaterThan(0);
        expect(tokens.every((token) => Number.isInteger(token))).toBe(true);
        expect(body.count).toBe(tokens.length);
        expect(body.token_strs).toBeNull();
      }
    });

    it('resolves a virtual id', async () => {
      const reply = await client().postJson('/tokenize', { model: 'general-max', prompt: 'Hi' });
      expect(reply.status, reply.text).toBe(200);
      expect(asRecord(reply.json).max_model_len).toBe(1_048_576);
    });
  });
}
