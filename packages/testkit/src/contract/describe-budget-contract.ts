import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse } from '../read-sse.js';
import { startRecordingUpstream, type RecordingUpstream } from '../start-recording-upstream.js';
import { upstreamsServingEverything } from '../upstreams-serving-everything.js';
import {
  asRecord,
  ContractClient,
  type LoggedGateway,
  type StartLoggedGateway,
} from './contract-client.js';

export interface BudgetContractOptions {
  /** Shown in the suite's title. */
  name: string;
  start: StartLoggedGateway;
}

const chatModel = 'alpha36-35b-a3b-instruct';
// Prices high enough that a few small requests reach a budget of a tenth of a dollar.
const inputPerMillion = 1000;
const outputPerMillion = 2000;
const amount = 0.1;
const maxTokens = 16;
const keys = {
  json: 'ig-budget-json-0123456789abcdef01234',
  stream: 'ig-budget-stream-0123456789abcdef012',
  limited: 'ig-budget-limited-0123456789abcdef01',
};

/** The amount as the gateway writes it: at most 10 decimals, no trailing zeros. */
function written(value: number): string {
  return value.toFixed(10).replace(/\.?0+$/, '');
}

function costOf(input: number, output: number): number {
  return (input * inputPerMillion + output * outputPerMillion) / 1_000_000;
}

/**
 * What docs/operations.md says is reserved before the call: the model's price applied to a quarter of
 * the body's characters (rounded up) in and its `max_tokens` out.
 */
function estimateOf(body: string): number {
  return costOf(Math.ceil(body.length / 4), maxTokens);
}

/** The end of the current UTC day, as the reset header writes it. */
function nextUtcMidnight(now: number): string {
  const date = new Date(now);
  const end = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1);
  return `${new Date(end).toISOString().slice(0, 19)}Z`;
}

function chatBody(stream: boolean): string {
  return JSON.stringify({
    model: chatModel,
    messages: [{ role: 'user', content: 'Say hello.' }],
    max_tokens: maxTokens,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
}

/**
 * Budgets per key, held by every app: a key of a daily budget is refused at the request the prices and
 * the upstream's usage say (its estimate reserved before the call, its real cost charged after), with
 * 429 `budget_exceeded`, Retry-After until midnight UTC and the budget headers on every answer; a
 * stream is charged from its final usage.
 */
export function runBudgetContract(options: BudgetContractOptions): void {
  describe(`budgets per key: ${options.name}`, () => {
    let upstream: RecordingUpstream;
    let gateway: LoggedGateway;
    let client: ContractClient;
    const budget = { amount, currency: 'USD', period: 'day' };

    beforeAll(async () => {
      upstream = await startRecordingUpstream();
      gateway = await options.start({
        upstreams: upstreamsServingEverything(upstream.url),
        prices: {
          [chatModel]: {
            input_per_million: inputPerMillion,
            output_per_million: outputPerMillion,
            currency: 'USD',
          },
        },
        keys: [
          { key: keys.json, name: 'budget-json', budget },
          { key: keys.stream, name: 'budget-stream', budget },
          {
            key: keys.limited,
            name: 'budget-limited',
            budget,
            limits: { requests_per_minute: 2 },
          },
        ],
      });
      client = new ContractClient(gateway);
    });

    afterAll(async () => {
      await gateway?.close();
      await upstream?.close();
    });

    const as = (key: string): { headers: Record<string, string> } => ({
      headers: { authorization: `Bearer ${key}` },
    });

    it('refuses the request whose estimate no longer fits, until midnight UTC', async () => {
      const body = chatBody(false);
      const estimate = estimateOf(body);
      let spent = 0;
      let refusedAt: number | undefined;
      let expectedRefusal: number | undefined;
      for (let index = 1; index <= 10 && refusedAt === undefined; index += 1) {
        // The rule: refused once the budget is spent, or when something is spent and the estimate
        // would take the spend past the amount.
        const fits = spent < amount && (spent === 0 || spent + estimate <= amount);
        if (!fits) expectedRefusal ??= index;
        const before = Date.now();
        const reply = await client.postJson('/v1/chat/completions', body, as(keys.json));
        const after = Date.now();
        expect([nextUtcMidnight(before), nextUtcMidnight(after)]).toContain(
          reply.headers.get('x-infergate-budget-reset'),
        );
        if (reply.status === 429) {
          refusedAt = index;
          const error = asRecord(asRecord(reply.json).error);
          expect(error.code).toBe('budget_exceeded');
          expect(error.type).toBe('rate_limit_error');
          const reset = reply.headers.get('x-infergate-budget-reset') ?? '';
          expect(error.message).toBe(
            `Budget of 0.1 USD per day reached for this API key; it resets at ${reset}.`,
          );
          expect(reply.headers.get('x-should-retry')).toBe('false');
          const retryAfter = Number(reply.headers.get('retry-after'));
          expect(retryAfter).toBeGreaterThanOrEqual(Math.ceil((Date.parse(reset) - after) / 1000));
          expect(retryAfter).toBeLessThanOrEqual(Math.ceil((Date.parse(reset) - before) / 1000));
          expect(reply.headers.get('x-infergate-budget-remaining')).toBe(
            `${written(amount - spent)} USD`,
          );
          continue;
        }
        expect(reply.status, reply.text).toBe(200);
        const usage = asRecord(asRecord(reply.json).usage);
        spent += costOf(Number(usage.prompt_tokens), Number(usage.completion_tokens));
        // A JSON answer's remaining already takes its own cost.
        expect(reply.headers.get('x-infergate-budget-remaining')).toBe(
          `${written(amount - spent)} USD`,
        );
      }
      expect(expectedRefusal).toBeGreaterThan(1);
      expect(refusedAt).toBe(expectedRefusal);
      // Refused from then on, for the rest of the day.
      const again = await client.postJson('/v1/chat/completions', body, as(keys.json));
      expect(again.status).toBe(429);
    });

    it('logs a budget refusal as a refusal of its key', async () => {
      const id = `budget-refused-${String(Date.now())}`;
      const reply = await client.postJson('/v1/chat/completions', chatBody(false), {
        headers: { ...as(keys.json).headers, 'x-request-id': id },
      });
      expect(reply.status).toBe(429);
      let line: Record<string, unknown> | undefined;
      for (let waited = 0; line === undefined && waited < 2000; waited += 20) {
        line = gateway.requestLog().find((fields) => fields.requestId === id);
        if (line === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(line).toMatchObject({ status: 429, keyName: 'budget-json' });
    });

    it('counts budget refusals in the metrics', async (context) => {
      if (gateway.metrics === undefined) context.skip();
      const metrics = gateway.metrics as () => Promise<string>;
      const sample = async (): Promise<number> =>
        Number(
          /^infergate_rejected_requests_total\{reason="budget"\} (\d+)$/m.exec(
            await metrics(),
          )?.[1],
        );
      const before = await sample();
      const reply = await client.postJson('/v1/chat/completions', chatBody(false), as(keys.json));
      expect(reply.status).toBe(429);
      expect((await sample()) - before).toBe(1);
    });

    it('tells the openai client not to retry a spent budget, and it does not', async () => {
      const { default: OpenAI, RateLimitError } = await import('openai');
      const openai = new OpenAI({ baseURL: `${gateway.baseUrl}/v1`, apiKey: keys.json });
      const refusals = (): number =>
        gateway
          .requestLog()
          .filter((fields) => fields.keyName === 'budget-json' && fields.status === 429).length;
      const before = refusals();
      const failure: unknown = await openai.chat.completions
        .create({ model: chatModel, messages: [{ role: 'user', content: 'Say hello.' }] })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(RateLimitError);
      expect((failure as InstanceType<typeof RateLimitError>).code).toBe('budget_exceeded');
      // One attempt, not the client's default of three (whose first two would be logged long before
      // the client gave up): waits for the last line, which an app may write after the answer.
      for (let waited = 0; refusals() === before && waited < 2000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(refusals() - before).toBe(1);
    });

    it('sends what is left after the reservation on a stream, and charges its final usage', async () => {
      const body = chatBody(true);
      const response = await client.post('/v1/chat/completions', body, as(keys.stream));
      expect(response.status).toBe(200);
      expect(response.headers.get('x-infergate-budget-remaining')).toBe(
        `${written(amount - estimateOf(body))} USD`,
      );
      const { events } = await readSse(response);
      const usage = asRecord(
        events
          .filter((event) => event.data !== '[DONE]')
          .map((event) => asRecord(JSON.parse(event.data)).usage)
          .find((value) => value !== undefined && value !== null),
      );
      const streamCost = costOf(Number(usage.prompt_tokens), Number(usage.completion_tokens));

      const next = await client.postJson('/v1/chat/completions', chatBody(false), as(keys.stream));
      expect(next.status, next.text).toBe(200);
      const nextUsage = asRecord(asRecord(next.json).usage);
      const nextCost = costOf(Number(nextUsage.prompt_tokens), Number(nextUsage.completion_tokens));
      expect(next.headers.get('x-infergate-budget-remaining')).toBe(
        `${written(amount - streamCost - nextCost)} USD`,
      );
    });

    it('sends what is left on refusals too, charging them nothing', async () => {
      const first = await client.postJson(
        '/v1/chat/completions',
        chatBody(false),
        as(keys.limited),
      );
      expect(first.status, first.text).toBe(200);
      const usage = asRecord(asRecord(first.json).usage);
      const left = `${written(amount - costOf(Number(usage.prompt_tokens), Number(usage.completion_tokens)))} USD`;
      expect(first.headers.get('x-infergate-budget-remaining')).toBe(left);
      // A request the gateway refuses (an unknown field), then one over requests_per_minute.
      const invalid = await client.postJson(
        '/v1/chat/completions',
        {
          model: chatModel,
          messages: [{ role: 'user', content: 'Say hello.' }],
          max_tokens: maxTokens,
          colour: 'red',
        },
        as(keys.limited),
      );
      expect(invalid.status).toBe(400);
      expect(invalid.headers.get('x-infergate-budget-remaining')).toBe(left);
      const limited = await client.postJson(
        '/v1/chat/completions',
        chatBody(false),
        as(keys.limited),
      );
      expect(limited.status).toBe(429);
      expect(asRecord(asRecord(limited.json).error).code).toBe('rate_limit_exceeded');
      expect(limited.headers.get('x-infergate-budget-remaining')).toBe(left);
      expect(limited.headers.get('x-infergate-budget-reset')).toMatch(
        /^\d{4}-\d\d-\d\dT00:00:00Z$/,
      );
    });

    it('sends no budget headers to a key without a budget', async () => {
      const reply = await client.postJson('/v1/chat/completions', chatBody(false));
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get('x-infergate-budget-remaining')).toBeNull();
      expect(reply.headers.get('x-infergate-budget-reset')).toBeNull();
    });
  });
}
