import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContractClient,
  parseSseText,
  recordedAnswer,
  recordedServerPayloads,
  serveRecordedPayload,
  startRecordingUpstream,
  upstreamsServingEverything,
  writeChatSse,
  writeJson,
  type RecordedServerPayload,
  type RecordingUpstream,
} from '@infergate/testkit';
import { startNodeGateway, type NodeGateway } from './start-node-gateway.js';

type Json = Record<string, unknown>;

// A model that shows its reasoning, so the reasoning of each shape is seen to come through.
const model = 'beta53-flash-agent';
const messages = [{ role: 'user', content: 'Say something.' }];
// The gateway's answer when the upstream sends no fingerprint: the spec types it as a string.
const fingerprintFallback = 'infergate';

const [firstPayload] = recordedServerPayloads;
if (firstPayload === undefined) throw new Error('no recorded payloads');

describe('answers of every common OpenAI-compatible server are read tolerantly (docs/design.md "tolerance")', () => {
  let upstream: RecordingUpstream;
  let gateway: NodeGateway;
  let client: ContractClient;
  let current: RecordedServerPayload = firstPayload;
  let bare: Json | undefined;
  let bareChunks: Json[] | undefined;

  beforeAll(async () => {
    upstream = await startRecordingUpstream({
      handlers: {
        'POST /v1/chat/completions': (request, response) => {
          if (bareChunks !== undefined) writeChatSse(response, bareChunks);
          else if (bare !== undefined) writeJson(response, 200, bare);
          else return serveRecordedPayload(() => current)(request, response);
        },
      },
    });
    gateway = await startNodeGateway({ upstreams: upstreamsServingEverything(upstream.url) });
    client = new ContractClient(gateway);
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  describe.each(recordedServerPayloads.map((payload) => [payload.name, payload] as const))(
    '%s',
    (_name, payload) => {
      const use = (): void => {
        current = payload;
        bare = undefined;
        bareChunks = undefined;
      };

      it("non-streamed chat: 200 with the spec's chat completion object", async () => {
        use();
        const reply = await client.postJson('/v1/chat/completions', { model, messages });
        expect(reply.status, reply.text).toBe(200);
        const body = reply.json as Json;
        expect(body).toMatchObject({
          object: 'chat.completion',
          model,
          system_fingerprint: payload.systemFingerprint ?? fingerprintFallback,
          service_tier: null,
        });
        expect(body.id).toMatch(/^chatcmpl-[0-9a-f]+$/);
        expect(Number.isInteger(body.created)).toBe(true);
        expect(body.usage).toMatchObject({
          prompt_tokens: recordedAnswer.promptTokens,
          completion_tokens: recordedAnswer.completionTokens,
          total_tokens: recordedAnswer.promptTokens + recordedAnswer.completionTokens,
        });
        expect(body.usage).toHaveProperty('prompt_tokens_details');
        const [choice] = body.choices as Json[];
        expect(choice).toMatchObject({
          index: 0,
          finish_reason: 'stop',
          logprobs: null,
          token_ids: null,
        });
        expect(choice?.message).toEqual({
          role: 'assistant',
          content: recordedAnswer.content,
          tool_calls: [],
          annotations: null,
          audio: null,
          function_call: null,
          reasoning: payload.hasReasoning ? recordedAnswer.reasoning : null,
          refusal: null,
        });
      });

      it('streamed chat: 200, every chunk readable, the text and usage complete, then [DONE]', async () => {
        use();
        const response = await client.post('/v1/chat/completions', {
          model,
          messages,
          stream: true,
          stream_options: { include_usage: true },
        });
        expect(response.status).toBe(200);
        const events = parseSseText(await response.text());
        expect(events.at(-1)?.data).toBe('[DONE]');
        const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data) as Json);
        expect(
          chunks.some((chunk) => 'error' in chunk),
          JSON.stringify(chunks),
        ).toBe(false);
        for (const chunk of chunks)
          expect(chunk).toMatchObject({
            model,
            id: expect.stringMatching(/^chatcmpl-[0-9a-f]+$/) as unknown,
          });
        const deltas = chunks.flatMap((chunk) =>
          (chunk.choices as Json[]).map((choice) => choice.delta as Json),
        );
        expect(
          deltas.map((delta) => (typeof delta.content === 'string' ? delta.content : '')).join(''),
        ).toBe(recordedAnswer.content);
        if (payload.hasReasoning)
          expect(
            deltas
              .map((delta) => (typeof delta.reasoning === 'string' ? delta.reasoning : ''))
              .join(''),
          ).toBe(recordedAnswer.reasoning);
        expect(deltas.every((delta) => !('reasoning_content' in delta))).toBe(true);
        const finishes = chunks
          .flatMap((chunk) => (chunk.choices as Json[]).map((choice) => choice.finish_reason))
          .filter((reason) => reason != null);
        expect(finishes).toEqual(['stop']);
        const usages = chunks.map((chunk) => chunk.usage).filter((usage) => usage != null);
        expect(usages.at(-1)).toMatchObject({
          prompt_tokens: recordedAnswer.promptTokens,
          completion_tokens: recordedAnswer.completionTokens,
        });
      });

      it('non-streamed responses: 200 with the text, the usage and status completed', async () => {
        use();
        const reply = await client.postJson('/v1/responses', { model, input: 'Say something.' });
        expect(reply.status, reply.text).toBe(200);
        const body = reply.json as Json;
        expect(body).toMatchObject({
          object: 'response',
          status: 'completed',
          model,
          output_text: recordedAnswer.content,
        });
        expect(body.usage).toMatchObject({
          input_tokens: recordedAnswer.promptTokens,
          output_tokens: recordedAnswer.completionTokens,
          total_tokens: recordedAnswer.promptTokens + recordedAnswer.completionTokens,
        });
        const types = (body.output as Json[]).map((item) => item.type);
        expect(types).toEqual(payload.hasReasoning ? ['reasoning', 'message'] : ['message']);
      });

      it('streamed responses: events in sequence, the text, and response.completed with the usage last', async () => {
        use();
        const response = await client.post('/v1/responses', {
          model,
          input: 'Say something.',
          stream: true,
        });
        expect(response.status).toBe(200);
        const events = parseSseText(await response.text()).map(
          (event) => JSON.parse(event.data) as Json,
        );
        expect(events.map((event) => event.sequence_number)).toEqual(
          events.map((_event, index) => index),
        );
        expect(events[0]?.type).toBe('response.created');
        const last = events.at(-1);
        expect(last?.type, JSON.stringify(last)).toBe('response.completed');
        const text = events
          .filter((event) => event.type === 'response.output_text.delta')
          .map((event) => event.delta as string)
          .join('');
        expect(text).toBe(recordedAnswer.content);
        expect((last?.response as Json).usage).toMatchObject({
          input_tokens: recordedAnswer.promptTokens,
          output_tokens: recordedAnswer.completionTokens,
        });
      });
    },
  );

  it('a non-streamed answer without logprobs (or any other optional field) is a 200 on chat and responses', async () => {
    bare = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_767_225_600,
      model: 'm',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Plain.' }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
    };
    const chat = await client.postJson('/v1/chat/completions', { model, messages });
    expect(chat.status, chat.text).toBe(200);
    expect(chat.json).toMatchObject({
      system_fingerprint: fingerprintFallback,
      choices: [
        { logprobs: null, stop_reason: null, message: { content: 'Plain.', tool_calls: [] } },
      ],
    });
    const responses = await client.postJson('/v1/responses', { model, input: 'Hi' });
    expect(responses.status, responses.text).toBe(200);
    expect((responses.json as Json).output_text).toBe('Plain.');
  });

  it('a stream with no role chunk, no logprobs, no finish_reason keys, usage null and a fingerprint on every chunk ends properly', async () => {
    bare = undefined;
    const chunk = (choices: Json[], usage: Json | null = null): Json => ({
      id: 'x',
      object: 'chat.completion.chunk',
      created: 1_767_225_600,
      model: 'm',
      system_fingerprint: 'fp_x',
      choices,
      usage,
    });
    bareChunks = [
      chunk([{ index: 0, delta: { content: 'Lean' } }]),
      chunk([{ index: 0, delta: { content: ' stream.' } }]),
      chunk([], { prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 }),
    ];
    const chat = await client.post('/v1/chat/completions', { model, messages, stream: true });
    const chatEvents = parseSseText(await chat.text());
    expect(chat.status).toBe(200);
    expect(chatEvents.at(-1)?.data).toBe('[DONE]');
    expect(chatEvents.some((event) => event.data.includes('"error"'))).toBe(false);
    const responses = await client.post('/v1/responses', { model, input: 'Hi', stream: true });
    const events = parseSseText(await responses.text()).map(
      (event) => JSON.parse(event.data) as Json,
    );
    expect(events.at(-1)?.type).toBe('response.completed');
    expect(
      events
        .filter((event) => event.type === 'response.output_text.delta')
        .map((event) => event.delta)
        .join(''),
    ).toBe('Lean stream.');
    bareChunks = undefined;
  });

  it('an answer without choices is a 502, never passed on', async () => {
    bare = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_767_225_600,
      model: 'm',
      usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
    };
    const chat = await client.postJson('/v1/chat/completions', { model, messages });
    expect(chat.status, chat.text).toBe(502);
    expect((chat.json as { error: Json }).error).toMatchObject({
      code: 'upstream_error',
      type: 'api_error',
    });
  });
});
