import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '../read-sse.js';
import { startRecordingUpstream, type RecordingUpstream } from '../start-recording-upstream.js';
import { upstreamsServingEverything } from '../upstreams-serving-everything.js';
import {
  asArray,
  asRecord,
  ContractClient,
  type LoggedGateway,
  type StartLoggedGateway,
} from './contract-client.js';

export interface CostContractOptions {
  /** Shown in the suite's title. */
  name: string;
  start: StartLoggedGateway;
}

interface Price {
  input_per_million: number;
  output_per_million: number;
  per_image?: number;
  currency: string;
}

const chatModel = 'alpha36-35b-a3b-instruct';
const unpricedModel = 'alpha35-122b-a10b-thinking-general';
const textOfPe = 'alpha35-122b-a10b-instruct-general';
const prices: Record<string, Price> = {
  [chatModel]: { input_per_million: 0.15, output_per_million: 0.6, currency: 'USD' },
  [textOfPe]: { input_per_million: 0.4, output_per_million: 1.6, currency: 'USD' },
  'gamma-m3': { input_per_million: 0.02, output_per_million: 0, currency: 'USD' },
  'gamma-reranker-v2-m3': { input_per_million: 0.05, output_per_million: 0, currency: 'USD' },
  'alpha-image': {
    input_per_million: 5,
    output_per_million: 40,
    per_image: 0.011,
    currency: 'USD',
  },
  'alpha-image-pe': {
    input_per_million: 5,
    output_per_million: 40,
    per_image: 0.02,
    currency: 'USD',
  },
};

/** The amount as the gateway writes it: at most 10 decimals, no trailing zeros. */
function written(amount: number): string {
  return amount.toFixed(10).replace(/\.?0+$/, '');
}

function costOf(model: string, input: number, output: number, images = 0): number {
  const price = prices[model] as Price;
  return (
    (input * price.input_per_million + output * price.output_per_million) / 1_000_000 +
    images * (price.per_image ?? 0)
  );
}

/**
 * What each request costs at the configured prices, held by every app: the `x-infergate-cost` header of
 * JSON answers, the `cost` of a stream's usage, the request log line and (where the app keeps
 * Prometheus metrics) `infergate_cost_total`, for every endpoint kind; nothing for a model without a price.
 */
export function runCostContract(options: CostContractOptions): void {
  describe(`cost of each request: ${options.name}`, () => {
    let upstream: RecordingUpstream;
    let gateway: LoggedGateway;
    let client: ContractClient;

    beforeAll(async () => {
      upstream = await startRecordingUpstream();
      gateway = await options.start({
        upstreams: upstreamsServingEverything(upstream.url),
        prices,
      });
      client = new ContractClient(gateway);
    });

    afterAll(async () => {
      await gateway?.close();
      await upstream?.close();
    });

    let counter = 0;
    const requestId = (name: string): string => {
      counter += 1;
      return `cost-${name}-${String(counter)}-${String(Date.now())}`;
    };

    async function logLine(id: string): Promise<Record<string, unknown>> {
      for (let waited = 0; waited < 2000; waited += 20) {
        const line = gateway.requestLog().find((fields) => fields.requestId === id);
        if (line !== undefined) return line;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no request log line for ${id}`);
    }

    it('charges a chat completion its input and output tokens, in the header and the log line', async () => {
      const id = requestId('chat');
      const reply = await client.postJson(
        '/v1/chat/completions',
        { model: 'general-std', messages: [{ role: 'user', content: 'Say hello.' }] },
        { headers: { 'x-request-id': id } },
      );
      expect(reply.status, reply.text).toBe(200);
      const usage = asRecord(asRecord(reply.json).usage);
      const expected = `${written(costOf(chatModel, Number(usage.prompt_tokens), Number(usage.completion_tokens)))} USD`;
      expect(reply.headers.get('x-infergate-cost')).toBe(expected);
      expect(await logLine(id)).toMatchObject({ model: chatModel, cost: expected });
    });

    it('puts the cost in the usage of a stream that asked for it, and in its log line', async () => {
      const id = requestId('stream');
      const response = await client.post(
        '/v1/chat/completions',
        {
          model: chatModel,
          messages: [{ role: 'user', content: 'Say hello.' }],
          stream: true,
          stream_options: { include_usage: true },
        },
        { headers: { 'x-request-id': id } },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('x-infergate-cost')).toBeNull();
      const { events } = await readSse(response);
      const usage = events
        .filter((event) => event.data !== '[DONE]')
        .map((event) => asRecord(JSON.parse(event.data)).usage)
        .find((value) => value !== undefined && value !== null);
      const counts = asRecord(usage);
      const amount = costOf(
        chatModel,
        Number(counts.prompt_tokens),
        Number(counts.completion_tokens),
      );
      expect(counts.cost).toBe(Number(written(amount)));
      expect(await logLine(id)).toMatchObject({ cost: `${written(amount)} USD` });
    });

    it('puts the cost in the usage of a responses stream', async () => {
      const id = requestId('responses-stream');
      const response = await client.post(
        '/v1/responses',
        { model: chatModel, input: 'Say hello.', stream: true },
        { headers: { 'x-request-id': id } },
      );
      expect(response.status).toBe(200);
      const { events } = await readSse(response);
      const completed = events.find((event) => event.event === 'response.completed');
      const usage = asRecord(
        asRecord(asRecord(JSON.parse(completed?.data ?? '{}')).response).usage,
      );
      const amount = costOf(chatModel, Number(usage.input_tokens), Number(usage.output_tokens));
      expect(usage.cost).toBe(Number(written(amount)));
      expect(await logLine(id)).toMatchObject({ cost: `${written(amount)} USD` });
    });

    it("leaves the openai client reading a stream's usage, cost included", async () => {
      // Loaded here: the client takes a while to load, and only this test needs it.
      const { default: OpenAI } = await import('openai');
      const openai = new OpenAI({ baseURL: `${gateway.baseUrl}/v1`, apiKey: gateway.apiKey });
      const stream = await openai.chat.completions.create({
        model: chatModel,
        messages: [{ role: 'user', content: 'Say hello.' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      let usage: Record<string, unknown> | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        if (chunk.usage) usage = chunk.usage as unknown as Record<string, unknown>;
      }
      expect(text.length).toBeGreaterThan(0);
      const amount = costOf(
        chatModel,
        Number(usage?.prompt_tokens),
        Number(usage?.completion_tokens),
      );
      expect(usage?.cost).toBe(Number(written(amount)));
    });

    it('charges embeddings and reranking their input tokens', async () => {
      const embedId = requestId('embed');
      const embedded = await client.postJson(
        '/v1/embeddings',
        { model: 'gamma-m3', input: ['one sentence', 'and another one'] },
        { headers: { 'x-request-id': embedId } },
      );
      expect(embedded.status, embedded.text).toBe(200);
      const embedTokens = Number(asRecord(asRecord(embedded.json).usage).prompt_tokens);
      const embedCost = `${written(costOf('gamma-m3', embedTokens, 0))} USD`;
      expect(embedded.headers.get('x-infergate-cost')).toBe(embedCost);
      expect(await logLine(embedId)).toMatchObject({ inputTokens: embedTokens, cost: embedCost });

      const rerankId = requestId('rerank');
      const reranked = await client.postJson(
        '/compat/v2/rerank',
        {
          model: 'gamma-reranker-v2-m3',
          query: 'What is the capital of France?',
          documents: ['Paris is the capital of France.', 'Bananas are yellow.'],
        },
        { headers: { 'x-request-id': rerankId } },
      );
      expect(reranked.status, reranked.text).toBe(200);
      const line = await logLine(rerankId);
      expect(Number(line.inputTokens)).toBeGreaterThan(0);
      const rerankCost = `${written(costOf('gamma-reranker-v2-m3', Number(line.inputTokens), 0))} USD`;
      expect(reranked.headers.get('x-infergate-cost')).toBe(rerankCost);
      expect(line.cost).toBe(rerankCost);
    });

    it('charges an image its tokens and a price per image, and a -pe rewrite to its text model', async () => {
      const id = requestId('image');
      const body = { prompt: 'a lighthouse', output_format: 'png', quality: 'low', size: '64x48' };
      const plain = await client.postJson(
        '/v1/images/generations',
        { model: 'alpha-image', ...body },
        { headers: { 'x-request-id': id } },
      );
      expect(plain.status, plain.text).toBe(200);
      const usage = asRecord(asRecord(plain.json).usage);
      const images = asArray(asRecord(plain.json).data).length;
      const imageCost = costOf(
        'alpha-image',
        Number(usage.input_tokens),
        Number(usage.output_tokens),
        images,
      );
      expect(plain.headers.get('x-infergate-cost')).toBe(`${written(imageCost)} USD`);
      expect(await logLine(id)).toMatchObject({ cost: `${written(imageCost)} USD` });

      const enhanced = await client.postJson('/v1/images/generations', {
        model: 'alpha-image-pe',
        ...body,
      });
      expect(enhanced.status, enhanced.text).toBe(200);
      const [rewriteIn, rewriteOut] = (
        enhanced.headers.get('x-infergate-prompt-enhancement-tokens') ?? ''
      )
        .split('/')
        .map(Number);
      const enhancedUsage = asRecord(asRecord(enhanced.json).usage);
      const total =
        costOf(
          'alpha-image-pe',
          Number(enhancedUsage.input_tokens),
          Number(enhancedUsage.output_tokens),
          asArray(asRecord(enhanced.json).data).length,
        ) + costOf(textOfPe, Number(rewriteIn), Number(rewriteOut));
      expect(enhanced.headers.get('x-infergate-cost')).toBe(`${written(total)} USD`);
    });

    it('says nothing of cost for a model without a price', async () => {
      const id = requestId('unpriced');
      const reply = await client.postJson(
        '/v1/chat/completions',
        { model: unpricedModel, messages: [{ role: 'user', content: 'Say hello.' }] },
        { headers: { 'x-request-id': id } },
      );
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get('x-infergate-cost')).toBeNull();
      expect(await logLine(id)).not.toHaveProperty('cost');
    });

    it('counts the cost per model, key and currency in the metrics', async (context) => {
      if (gateway.metrics === undefined) context.skip();
      const metrics = gateway.metrics as () => Promise<string>;
      const sample = async (model: string): Promise<number> => {
        const match = new RegExp(
          `^infergate_cost_total\\{model="${model}",key="[^"]*",currency="USD"\\} (\\S+)$`,
          'm',
        ).exec(await metrics());
        return match === null ? 0 : Number(match[1]);
      };
      const before = await sample(chatModel);
      const reply = await client.postJson('/v1/chat/completions', {
        model: chatModel,
        messages: [{ role: 'user', content: 'Say hello.' }],
      });
      const usage = asRecord(asRecord(reply.json).usage);
      const amount = costOf(
        chatModel,
        Number(usage.prompt_tokens),
        Number(usage.completion_tokens),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await sample(chatModel)) - before).toBeCloseTo(amount, 12);
      expect(await sample(unpricedModel)).toBe(0);
    });
  });
}
