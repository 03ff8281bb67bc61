import { CohereClientV2, CohereError } from 'cohere-ai';
import OpenAI, { AuthenticationError, BadRequestError, NotFoundError } from 'openai';
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  vi,
  type MockInstance,
} from 'vitest';
import type { StartedGateway } from './contract-client.js';
import { specCatalogueIds } from './spec-catalogue.js';

export interface ClientCompatibilityOptions {
  name: string;
  /** A gateway whose models are served by the local backend (or any real upstream). */
  start(): Promise<StartedGateway>;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/**
 * The official `openai` and `cohere-ai` packages, unchanged, pointed at the gateway: what a user of
 * either library does. A body the libraries cannot use fails here even when it looks right in JSON.
 */
export function runClientCompatibility(options: ClientCompatibilityOptions): void {
  describe(`official client libraries: ${options.name}`, () => {
    let gateway: StartedGateway;
    let openai: OpenAI;
    let cohere: CohereClientV2;
    let warn: MockInstance<typeof console.warn>;

    beforeAll(async () => {
      gateway = await options.start();
      openai = new OpenAI({
        apiKey: gateway.apiKey,
        baseURL: `${gateway.baseUrl}/v1`,
        maxRetries: 0,
      });
      // a CohereClientV2 user sets baseUrl to {base_url}/compat.
      cohere = new CohereClientV2({ token: gateway.apiKey, baseUrl: `${gateway.baseUrl}/compat` });
    });

    afterAll(async () => {
      await gateway?.close();
    });

    beforeEach(() => {
      // cohere-ai logs "Failed to validate" and returns the raw snake_case body when a response does not fit its schema.
      warn = vi.spyOn(console, 'warn');
    });

    afterEach(() => {
      expect(warn.mock.calls.flat().join(' ')).not.toContain('Failed to validate');
      warn.mockRestore();
    });

    describe('openai', () => {
      it('chat.completions.create', async () => {
        const completion = await openai.chat.completions.create({
          model: 'general-std',
          messages: [{ role: 'user', content: 'Hello' }],
        });
        expect(completion.object).toBe('chat.completion');
        expect(completion.model).toBe('alpha36-35b-a3b-instruct');
        expect(completion.choices[0]?.message.role).toBe('assistant');
        expect(completion.choices[0]?.message.content?.length).toBeGreaterThan(0);
        expect(completion.usage?.total_tokens).toBe(
          (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
        );
      });

      it("chat.completions.create with stream: true, and the stream() helper's finalChatCompletion()", async () => {
        const stream = await openai.chat.completions.create({
          model: 'alpha36-35b-a3b-instruct',
          messages: [{ role: 'user', content: 'Hello' }],
          stream: true,
        });
        let text = '';
        let finish: string | null | undefined;
        for await (const chunk of stream) {
          text += chunk.choices[0]?.delta.content ?? '';
          finish = chunk.choices[0]?.finish_reason ?? finish;
        }
        expect(text.length).toBeGreaterThan(0);
        expect(finish).toBe('stop');
        const final = await openai.chat.completions
          .stream({
            model: 'alpha36-35b-a3b-instruct',
            messages: [{ role: 'user', content: 'Hello' }],
          })
          .finalChatCompletion();
        expect(final.choices[0]?.message.content?.length).toBeGreaterThan(0);
        expect(final.choices[0]?.finish_reason).toBe('stop');
      });

      it('responses.create fills output_text', async () => {
        const response = await openai.responses.create({
          model: 'alpha36-35b-a3b-instruct',
          input: 'Write one sentence.',
        });
        expect(response.object).toBe('response');
        expect(response.status).toBe('completed');
        expect(response.output_text.length).toBeGreaterThan(0);
      });

      it('responses streaming: raw events and responses.stream().finalResponse()', async () => {
        const stream = await openai.responses.create({
          model: 'alpha36-35b-a3b-instruct',
          input: 'Write one sentence.',
          stream: true,
        });
        const types: string[] = [];
        let deltas = '';
        for await (const event of stream) {
          types.push(event.type);
          if (event.type === 'response.output_text.delta') deltas += event.delta;
        }
        expect(types[0]).toBe('response.created');
        expect(types.at(-1)).toBe('response.completed');
        expect(deltas.length).toBeGreaterThan(0);
        const final = await openai.responses
          .stream({ model: 'alpha36-35b-a3b-instruct', input: 'Write one sentence.' })
          .finalResponse();
        expect(final.status).toBe('completed');
        expect(final.output_text).toBe(deltas);
      });

      it('embeddings.create: base64 (the library default) and float give the same vector', async () => {
        const byDefault = await openai.embeddings.create({
          model: 'gamma-m3',
          input: 'the quick brown fox',
        });
        const floats = await openai.embeddings.create({
          model: 'gamma-m3',
          input: 'the quick brown fox',
          encoding_format: 'float',
        });
        const decoded = byDefault.data[0]?.embedding ?? [];
        const plain = floats.data[0]?.embedding ?? [];
        expect(decoded).toHaveLength(1024);
        expect(plain).toHaveLength(1024);
        decoded.forEach((value, index) => expect(value).toBeCloseTo(plain[index] as number, 6));
        expect(byDefault.model).toBe('gamma-m3');
      });

      it('images.generate returns b64_json', async () => {
        const result = await openai.images.generate({
          model: 'alpha-image',
          prompt: 'a lighthouse',
          size: '256x256',
          quality: 'high',
          output_format: 'png',
        });
        const image = Buffer.from(result.data?.[0]?.b64_json ?? '', 'base64');
        expect(image.subarray(1, 4).toString('latin1')).toBe('PNG');
        expect(result.size).toBe('256x256');
      });

      it('models.list pages through every catalogue model', async () => {
        const ids: string[] = [];
        for await (const model of openai.models.list()) ids.push(model.id);
        expect(ids).toEqual(expect.arrayContaining([...specCatalogueIds]));
      });

      it("maps errors to the library's classes: 401, 404, 400", async () => {
        const unauthorized = await rejection(
          new OpenAI({
            apiKey: 'wrong-key',
            baseURL: `${gateway.baseUrl}/v1`,
            maxRetries: 0,
          }).models.list(),
        );
        expect(unauthorized).toBeInstanceOf(AuthenticationError);
        expect((unauthorized as AuthenticationError).status).toBe(401);
        const notFound = await rejection(
          openai.chat.completions.create({
            model: 'no-such-model',
            messages: [{ role: 'user', content: 'x' }],
          }),
        );
        expect(notFound).toBeInstanceOf(NotFoundError);
        expect((notFound as NotFoundError).code).toBe('model_not_found');
        expect((notFound as NotFoundError).requestID).toBeTruthy();
        const badRequest = await rejection(
          openai.embeddings.create({ model: 'gamma-m3', input: 'x', dimensions: 64 }),
        );
        expect(badRequest).toBeInstanceOf(BadRequestError);
        expect((badRequest as BadRequestError).status).toBe(400);
        expect((badRequest as BadRequestError).param).toBe('dimensions');
      });
    });

    describe('cohere-ai (CohereClientV2 at {base_url}/compat)', () => {
      it('embed: typed camelCase fields are populated', async () => {
        const response = await cohere.embed(
          {
            model: 'alpha3-vl-embedding-8b',
            inputType: 'search_document',
            embeddingTypes: ['float'],
            outputDimension: 256,
            inputs: [{ content: [{ type: 'text', text: 'hello world' }] }],
          },
          { maxRetries: 0 },
        );
        expect(typeof response.id).toBe('string');
        expect(response.embeddings.float?.[0]).toHaveLength(256);
        expect(response.meta?.apiVersion?.version).toBe('2');
        expect(response.meta?.apiVersion?.isExperimental).toBe(true);
        expect(typeof response.meta?.billedUnits?.inputTokens).toBe('number');
        expect((response as unknown as Record<string, unknown>).billed_units).toBeUndefined();
      });

      it('rerank: typed results with relevanceScore', async () => {
        const response = await cohere.rerank(
          {
            model: 'gamma-reranker-v2-m3',
            query: 'capital of France',
            documents: ['Paris is the capital of France.', 'Bananas are yellow.'],
            topN: 2,
          },
          { maxRetries: 0 },
        );
        expect(response.results).toHaveLength(2);
        for (const result of response.results) {
          expect(typeof result.index).toBe('number');
          expect(typeof result.relevanceScore).toBe('number');
        }
        expect(response.results[0]?.relevanceScore).toBeGreaterThanOrEqual(
          response.results[1]?.relevanceScore ?? 0,
        );
      });

      it('errors reach the library with their status', async () => {
        const error = await rejection(
          new CohereClientV2({ token: 'wrong-key', baseUrl: `${gateway.baseUrl}/compat` }).rerank(
            { model: 'gamma-reranker-v2-m3', query: 'q', documents: ['d'] },
            { maxRetries: 0 },
          ),
        );
        expect(error).toBeInstanceOf(CohereError);
        expect((error as CohereError).statusCode).toBe(401);
      });
    });
  });
}
