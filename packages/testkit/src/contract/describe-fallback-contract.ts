import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultUpstreamHandlers } from '../default-upstream-handlers.js';
import { closedPort } from '../fault-matrix/describe-upstream-rows.js';
import { readSse } from '../read-sse.js';
import type { RecordedRequest } from '../recorded-request.js';
import {
  startRecordingUpstream,
  type RecordingUpstream,
  type UpstreamHandler,
} from '../start-recording-upstream.js';
import { chatStreamChunks } from '../vllm-payloads.js';
import { writeJson } from '../write-json.js';
import {
  asRecord,
  ContractClient,
  type LoggedGateway,
  type StartLoggedGateway,
} from './contract-client.js';

export interface FallbackContractOptions {
  /** Shown in the suite's title. */
  name: string;
  start: StartLoggedGateway;
}

const first = 'alpha36-35b-a3b-instruct';
// Backend-enforced sampling: a direct request to it drops temperature, so a fallback to it must too.
const second = 'alpha35-122b-a10b-instruct-creative';
const third = 'alpha35-122b-a10b-instruct-general';
// Served by an upstream nothing listens on, and by no upstream at all.
const unreachable = 'alpha36-35b-a3b-thinking-general';
const unconfigured = 'alpha36-35b-a3b-thinking-coding';

const limitedKey = 'ig-fallback-limited-0123456789abcdef01';
const teamKey = 'ig-fallback-team-0123456789abcdef0123';

/** How the first model's upstream answers a chat request, switched per test. */
type FirstMode =
  | 'ok'
  | 'hang'
  | 'cut-stream'
  | { status: 400 | 429 | 500 | 502 | 503 | 504; headers?: Record<string, string> };

function chatBody(model: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model,
    messages: [{ role: 'user', content: 'Say hello.' }],
    temperature: 0.3,
    max_tokens: 32,
    ...extra,
  };
}

function upstreamOf(name: string, url: string, models: string[]): Record<string, unknown> {
  return {
    name,
    url,
    protocol: 'openai',
    models: Object.fromEntries(models.map((id) => [id, id])),
  };
}

function chatsTo(upstream: RecordingUpstream): RecordedRequest[] {
  return upstream.requestsTo('/v1/chat/completions');
}

/**
 * Fallbacks across models (virtual models with a list), held by every app: which failures move to the
 * next model and which are answered, what the next model is sent, what the client and the log see,
 * the weights of a canary, and the key's allow-list.
 */
export function runFallbackContract(options: FallbackContractOptions): void {
  describe(`fallbacks across models: ${options.name}`, () => {
    let firstMode: FirstMode = 'ok';
    let upstreamA: RecordingUpstream;
    let upstreamB: RecordingUpstream;
    let gateway: LoggedGateway;
    let client: ContractClient;

    const firstHandler: UpstreamHandler = async (request, response: ServerResponse) => {
      const mode = firstMode;
      if (mode === 'ok')
        return defaultUpstreamHandlers['POST /v1/chat/completions']?.(request, response);
      if (mode === 'hang') return request.closed;
      if (mode === 'cut-stream') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const [role] = chatStreamChunks(first, ['Hel', 'lo'], false);
        response.write(`data: ${JSON.stringify(role)}\n\n`);
        await new Promise((resolve) => setTimeout(resolve, 50));
        response.destroy();
        return undefined;
      }
      writeJson(
        response,
        mode.status,
        { error: { message: `test failure ${mode.status}`, type: 'Error', param: null } },
        mode.headers,
      );
      return undefined;
    };

    beforeAll(async () => {
      upstreamA = await startRecordingUpstream({
        handlers: { 'POST /v1/chat/completions': firstHandler },
      });
      upstreamB = await startRecordingUpstream();
      gateway = await options.start({
        upstreams: [
          upstreamOf('up-a', upstreamA.url, [first, 'tiny']),
          upstreamOf('up-b', upstreamB.url, [second, third]),
          upstreamOf('up-dead', `http://127.0.0.1:${String(await closedPort())}`, [unreachable]),
        ],
        models: { tiny: { kind: 'text', context: 64, description: 'a small context window' } },
        virtual_models: {
          'team-default': { models: [first, second] },
          'on-429-only': { models: [first, second], on: ['rate_limited'] },
          'dead-first': { models: [unreachable, second] },
          'unconfigured-first': { models: [unconfigured, second] },
          canary: { models: [first, third], weights: { [first]: 90, [third]: 10 } },
          'long-prompts': { models: ['tiny', second], on: ['context_length'] },
          'nowhere-left': { models: [first, unreachable] },
        },
        keys: [
          { key: limitedKey, name: 'limited', models: [first] },
          { key: teamKey, name: 'team', models: ['team-default'] },
        ],
        retries: { attempts: 0 },
        timeouts: { headers_ms: 1500, first_event_ms: 1500 },
      });
      client = new ContractClient(gateway);
    });

    afterAll(async () => {
      await gateway?.close();
      await upstreamA?.close();
      await upstreamB?.close();
    });

    beforeEach(() => {
      firstMode = 'ok';
      upstreamA.clear();
      upstreamB.clear();
    });

    /** The request the second model's upstream got for a direct call to it with the same body. */
    async function directBodyOf(
      model: string,
      extra: Record<string, unknown> = {},
    ): Promise<unknown> {
      const before = chatsTo(upstreamB).length;
      const direct = await client.postJson('/v1/chat/completions', chatBody(model, extra));
      expect(direct.status, direct.text).toBe(200);
      return chatsTo(upstreamB)[before]?.body;
    }

    const fallbackCases: Array<[string, FirstMode, string]> = [
      ['a 429', { status: 429, headers: { 'retry-after': '2' } }, 'rate_limited'],
      ['a 502', { status: 502 }, 'unavailable'],
      ['a 503', { status: 503 }, 'unavailable'],
      ['a 504', { status: 504 }, 'unavailable'],
      ['no answer before the first byte', 'hang', 'timeout'],
    ];

    it.each(fallbackCases)(
      'moves to the next model on %s, sending it what a direct call sends',
      async (_name, mode, reason) => {
        firstMode = mode;
        const reply = await client.postJson('/v1/chat/completions', chatBody('team-default'), {
          headers: { 'x-request-id': `fallback-${reason}-${String(Date.now())}` },
        });
        expect(reply.status, reply.text).toBe(200);
        expect(asRecord(reply.json).model).toBe(second);
        expect(reply.headers.get('x-infergate-model')).toBe(second);
        expect(reply.headers.get('x-infergate-fallback')).toBe(`${first}=${reason}`);
        expect(chatsTo(upstreamA)).toHaveLength(1);
        expect(chatsTo(upstreamB)).toHaveLength(1);
        const sent = chatsTo(upstreamB)[0]?.body;
        // The second model's rules applied: its enforced sampling drops temperature.
        expect(asRecord(sent)).not.toHaveProperty('temperature');
        expect(sent).toEqual(await directBodyOf(second));
      },
    );

    it('moves on when the first model cannot be reached, or no upstream serves it', async () => {
      for (const [virtual, model, reason] of [
        ['dead-first', unreachable, 'connection'],
        ['unconfigured-first', unconfigured, 'model_not_configured'],
      ]) {
        const reply = await client.postJson('/v1/chat/completions', chatBody(virtual as string));
        expect(reply.status, reply.text).toBe(200);
        expect(asRecord(reply.json).model).toBe(second);
        expect(reply.headers.get('x-infergate-fallback')).toBe(`${model}=${reason}`);
      }
    });

    it('falls back on a stream that failed before its first byte, and streams the next model', async () => {
      firstMode = { status: 503 };
      const response = await client.post(
        '/v1/chat/completions',
        chatBody('team-default', { stream: true }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('x-infergate-model')).toBe(second);
      expect(response.headers.get('x-infergate-fallback')).toBe(`${first}=unavailable`);
      const { events } = await readSse(response);
      expect(events.at(-1)?.data).toBe('[DONE]');
      const chunks = events.slice(0, -1).map((event) => asRecord(JSON.parse(event.data)));
      expect(chunks.every((chunk) => chunk.model === second)).toBe(true);
      expect(chatsTo(upstreamB)).toHaveLength(1);
    });

    it('answers a failure that is not in `on` as it is, without calling the next model', async () => {
      firstMode = { status: 500 };
      const failed = await client.postJson('/v1/chat/completions', chatBody('team-default'));
      expect(failed.status, failed.text).toBe(502);
      expect(failed.headers.get('x-infergate-fallback')).toBeNull();
      firstMode = { status: 400 };
      const refused = await client.postJson('/v1/chat/completions', chatBody('team-default'));
      expect(refused.status, refused.text).toBe(400);
      firstMode = { status: 503 };
      const notListed = await client.postJson('/v1/chat/completions', chatBody('on-429-only'));
      expect(notListed.status, notListed.text).toBe(502);
      expect(chatsTo(upstreamA)).toHaveLength(3);
      expect(chatsTo(upstreamB)).toHaveLength(0);
    });

    it('never retries a stream that failed after its first byte', async () => {
      firstMode = 'cut-stream';
      const response = await client.post(
        '/v1/chat/completions',
        chatBody('team-default', { stream: true }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('x-infergate-model')).toBe(first);
      // The failure ends the stream in-protocol: an error object, then [DONE].
      const { events } = await readSse(response);
      const error = events.map((event) => event.data).find((data) => data.includes('"error"'));
      expect(error).toBeDefined();
      expect(chatsTo(upstreamA)).toHaveLength(1);
      expect(chatsTo(upstreamB)).toHaveLength(0);
    });

    it('answers the last model’s error when every model failed, and logs what was tried', async () => {
      firstMode = { status: 503 };
      const requestId = `fallback-all-failed-${String(Date.now())}`;
      const reply = await client.postJson('/v1/chat/completions', chatBody('nowhere-left'), {
        headers: { 'x-request-id': requestId },
      });
      expect(reply.status, reply.text).toBeGreaterThanOrEqual(502);
      expect(reply.headers.get('x-infergate-model')).toBeNull();
      // What was tried is the operator's to read, in the log; the body is the last failure alone.
      expect(reply.text).not.toContain(first);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const line = gateway.requestLog().find((fields) => fields.requestId === requestId);
      expect(line).toMatchObject({
        model: unreachable,
        status: reply.status,
        fallbacks: [{ model: first, reason: 'unavailable' }],
      });
    });

    it('skips a model whose context window the prompt does not fit, before any call', async () => {
      const long = 'word '.repeat(400);
      const reply = await client.postJson('/v1/chat/completions', {
        model: 'long-prompts',
        messages: [{ role: 'user', content: long }],
      });
      expect(reply.status, reply.text).toBe(200);
      expect(asRecord(reply.json).model).toBe(second);
      expect(reply.headers.get('x-infergate-fallback')).toBe('tiny=context_length');
      expect(chatsTo(upstreamA)).toHaveLength(0);
      const short = await client.postJson('/v1/chat/completions', chatBody('long-prompts'));
      expect(asRecord(short.json).model).toBe('tiny');
      expect(short.headers.get('x-infergate-fallback')).toBeNull();
    });

    it('falls back only to models the key may use', async () => {
      firstMode = { status: 503 };
      const limited = await client.postJson('/v1/chat/completions', chatBody('team-default'), {
        headers: { authorization: `Bearer ${limitedKey}` },
      });
      expect(limited.status, limited.text).toBe(502);
      expect(chatsTo(upstreamB)).toHaveLength(0);
      const team = await client.postJson('/v1/chat/completions', chatBody('team-default'), {
        headers: { authorization: `Bearer ${teamKey}` },
      });
      expect(team.status, team.text).toBe(200);
      expect(asRecord(team.json).model).toBe(second);
    });

    it('splits the first attempt by weight (90/10 over 1,000 requests, within 5 points)', async () => {
      const requests = 1000;
      let next = 0;
      const answered: Record<string, number> = {};
      const worker = async (): Promise<void> => {
        while (next < requests) {
          next += 1;
          const reply = await client.postJson('/v1/chat/completions', chatBody('canary'));
          const model = String(asRecord(reply.json).model);
          answered[model] = (answered[model] ?? 0) + 1;
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      expect((answered[first] ?? 0) + (answered[third] ?? 0)).toBe(requests);
      // 100 expected; 5 points is over five standard deviations of a fair draw.
      expect(answered[third]).toBeGreaterThanOrEqual(50);
      expect(answered[third]).toBeLessThanOrEqual(150);
    });

    it('charges the tokens to the model that answered and names the models left in the log line', async () => {
      firstMode = { status: 429, headers: { 'retry-after': '2' } };
      const requestId = `fallback-log-${String(Date.now())}`;
      const reply = await client.postJson('/v1/chat/completions', chatBody('team-default'), {
        headers: { 'x-request-id': requestId },
      });
      expect(reply.status, reply.text).toBe(200);
      const usage = asRecord(asRecord(reply.json).usage);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const line = gateway.requestLog().find((fields) => fields.requestId === requestId);
      expect(line).toMatchObject({
        model: second,
        upstream: 'up-b',
        status: 200,
        inputTokens: usage.prompt_tokens,
        outputTokens: usage.completion_tokens,
        fallbacks: [{ model: first, reason: 'rate_limited' }],
      });
      if (gateway.metrics !== undefined) {
        const text = await gateway.metrics();
        expect(text).toMatch(
          new RegExp(
            `^infergate_fallbacks_total\\{from="${first}",to="${second}",reason="rate_limited"\\} [1-9]`,
            'm',
          ),
        );
        expect(text).toMatch(
          new RegExp(`^infergate_input_tokens_total\\{model="${second}",key="[^"]*"\\} [1-9]`, 'm'),
        );
      }
    });

    it('lists a virtual model’s models in GET /v1/models', async () => {
      const reply = await client.getJson('/v1/models/canary');
      expect(reply.status, reply.text).toBe(200);
      expect(asRecord(reply.json)).toMatchObject({
        id: 'canary',
        maps_to: first,
        fallback: {
          models: [first, third],
          on: ['connection', 'timeout', 'rate_limited', 'unavailable', 'model_not_configured'],
          weights: { [first]: 90, [third]: 10 },
        },
      });
    });
  });
}
