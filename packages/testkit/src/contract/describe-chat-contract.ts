import { describe, expect, it } from 'vitest';
import { readSse } from '../read-sse.js';
import { asArray, asRecord, type ContractClient } from './contract-client.js';
import { expectNativeError } from './expect-envelopes.js';
import { pngDataUrl } from './test-images.js';

const userMessage = [{ role: 'user', content: 'Say hello in five words.' }];

/** The bytes of chat stream events as the completion API writes them: one `data:` line and a blank line each. */
function sseByteLength(events: readonly { data: string }[]): number {
  return events.reduce(
    (total, event) => total + new TextEncoder().encode(`data: ${event.data}\n\n`).byteLength,
    0,
  );
}

function expectInteger(value: unknown): void {
  expect(Number.isInteger(value), String(value)).toBe(true);
}

/** Spec "Chat completion object", field by field. */
export function expectChatCompletion(value: unknown, model: string): Record<string, unknown> {
  const body = asRecord(value);
  // The spec's form: chatcmpl-<hex>.
  expect(body.id).toMatch(/^chatcmpl-[0-9a-f]+$/);
  expect(body.object).toBe('chat.completion');
  expectInteger(body.created);
  expect(body.model).toBe(model);
  expect(typeof body.system_fingerprint).toBe('string');
  const choices = asArray(body.choices);
  expect(choices).toHaveLength(1);
  const choice = asRecord(choices[0]);
  expect(choice.index).toBe(0);
  expect(choice.finish_reason).toBe('stop');
  expect(choice.logprobs).toBeNull();
  const message = asRecord(choice.message);
  expect(message.role).toBe('assistant');
  expect(typeof message.content).toBe('string');
  expect((message.content as string).length).toBeGreaterThan(0);
  expect(message.tool_calls).toEqual([]);
  const usage = asRecord(body.usage);
  expectInteger(usage.prompt_tokens);
  expectInteger(usage.completion_tokens);
  expect(usage.total_tokens).toBe(
    (usage.prompt_tokens as number) + (usage.completion_tokens as number),
  );
  return body;
}

export function describeChatContract(client: () => ContractClient): void {
  describe('POST /v1/chat/completions', () => {
    it('answers the chat completion object for a catalogue id', async () => {
      const reply = await client().postJson('/v1/chat/completions', {
        model: 'alpha36-35b-a3b-instruct',
        messages: userMessage,
        max_tokens: 4096,
      });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(reply.headers.get('x-request-id')).toBeTruthy();
      expectChatCompletion(reply.json, 'alpha36-35b-a3b-instruct');
    });

    it('resolves a virtual id and reports the catalogue id it used', async () => {
      const reply = await client().postJson('/v1/chat/completions', {
        model: 'general-std',
        messages: userMessage,
      });
      expect(reply.status, reply.text).toBe(200);
      expectChatCompletion(reply.json, 'alpha36-35b-a3b-instruct');
    });

    it('takes the extra sampling parameters on a full-control model', async () => {
      const reply = await client().postJson('/v1/chat/completions', {
        model: 'alpha35-122b-a10b-instruct-general',
        messages: userMessage,
        temperature: 0.7,
        top_p: 0.9,
        top_k: 20,
        min_p: 0.05,
        repetition_penalty: 1.1,
        stop_token_ids: [151645],
        skip_special_tokens: true,
        bad_words: ['forbidden'],
      });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get('x-infergate-ignored-params')).toBeNull();
      expectChatCompletion(reply.json, 'alpha35-122b-a10b-instruct-general');
    });

    it('drops sampling parameters on a backend-enforced model and names them in x-infergate-ignored-params', async () => {
      const reply = await client().postJson('/v1/chat/completions', {
        model: 'alpha35-122b-a10b-instruct-creative',
        messages: userMessage,
        temperature: 1.3,
        top_k: 5,
      });
      expect(reply.status, reply.text).toBe(200);
      const ignored = (reply.headers.get('x-infergate-ignored-params') ?? '')
        .split(',')
        .map((name) => name.trim());
      expect(ignored).toEqual(expect.arrayContaining(['temperature', 'top_k']));
      expectChatCompletion(reply.json, 'alpha35-122b-a10b-instruct-creative');
    });

    it('accepts reasoning_effort on beta53-flash-chat and low on a -low variant', async () => {
      for (const [model, effort] of [
        ['beta53-flash-chat', 'high'],
        ['beta53-flash-agent', 'max'],
        ['beta53-flash-chat-low', 'low'],
      ] as const) {
        const reply = await client().postJson('/v1/chat/completions', {
          model,
          messages: userMessage,
          reasoning_effort: effort,
        });
        expect(reply.status, `${model} ${reply.text}`).toBe(200);
        expectChatCompletion(reply.json, model);
      }
    });

    it('refuses reasoning_effort other than low on a -low variant, and on a model that does not take it', async () => {
      expectNativeError(
        await client().postJson('/v1/chat/completions', {
          model: 'beta53-flash-agent-low',
          messages: userMessage,
          reasoning_effort: 'high',
        }),
        400,
        { param: 'reasoning_effort' },
      );
      expectNativeError(
        await client().postJson('/v1/chat/completions', {
          model: 'alpha36-35b-a3b-instruct',
          messages: userMessage,
          reasoning_effort: 'low',
        }),
        400,
        { param: 'reasoning_effort' },
      );
    });

    it('accepts an image as a base64 data URL and refuses one given by URL', async () => {
      const content = [
        { type: 'text', text: 'What is in this image?' },
        { type: 'image_url', image_url: { url: pngDataUrl } },
      ];
      const ok = await client().postJson('/v1/chat/completions', {
        model: 'alpha36-35b-a3b-instruct',
        messages: [{ role: 'user', content }],
      });
      expect(ok.status, ok.text).toBe(200);
      const external = [
        { type: 'text', text: 'What is in this image?' },
        { type: 'image_url', image_url: { url: 'http://169.254.169.254/latest/meta-data' } },
      ];
      const error = expectNativeError(
        await client().postJson('/v1/chat/completions', {
          model: 'alpha36-35b-a3b-instruct',
          messages: [{ role: 'user', content: external }],
        }),
        400,
      );
      expect(String(error.param)).toMatch(/^messages\[0\]\.content\[1\]/);
    });

    it('answers 404 model_not_found for an unknown model and 400 model_not_supported for a model of another endpoint', async () => {
      expectNativeError(
        await client().postJson('/v1/chat/completions', {
          model: 'no-such-model',
          messages: userMessage,
        }),
        404,
        {
          code: 'model_not_found',
          param: 'model',
        },
      );
      const error = expectNativeError(
        await client().postJson('/v1/chat/completions', {
          model: 'gamma-m3',
          messages: userMessage,
        }),
        400,
        {
          code: 'model_not_supported',
          param: 'model',
        },
      );
      expect(error.message).toContain('/v1/embeddings');
    });

    it('refuses an unknown field by name and a missing required one', async () => {
      expectNativeError(
        await client().postJson('/v1/chat/completions', {
          model: 'alpha36-35b-a3b-instruct',
          messages: userMessage,
          tempreature: 1,
        }),
        400,
        {
          param: 'tempreature',
        },
      );
      expectNativeError(
        await client().postJson('/v1/chat/completions', { model: 'alpha36-35b-a3b-instruct' }),
        400,
        { param: 'messages' },
      );
    });

    it('streams chat.completion.chunk events ending with data: [DONE]', async () => {
      const response = await client().post('/v1/chat/completions', {
        model: 'general-std',
        messages: userMessage,
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(response.headers.get('x-request-id')).toBeTruthy();
      expect(response.headers.get('content-encoding')).toBeNull();
      const { text: body, events } = await readSse(response);
      // The whole body arrived, in order: it ends with the terminator, and every byte belongs to an event.
      expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
      expect(new TextEncoder().encode(body).byteLength).toBe(sseByteLength(events));
      expect(events.at(-1)?.data).toBe('[DONE]');
      const chunks = events.slice(0, -1).map((event) => asRecord(JSON.parse(event.data)));
      expect(chunks.length).toBeGreaterThan(1);
      let text = '';
      let role: unknown;
      let finish: unknown;
      for (const chunk of chunks) {
        expect(chunk.error).toBeUndefined();
        expect(chunk.object).toBe('chat.completion.chunk');
        expect(chunk.id).toBe(chunks[0]?.id);
        expect(chunk.id).toMatch(/^chatcmpl-[0-9a-f]+$/);
        expect(chunk.model).toBe('alpha36-35b-a3b-instruct');
        for (const choice of asArray(chunk.choices).map(asRecord)) {
          const delta = asRecord(choice.delta);
          if (typeof delta.content === 'string') text += delta.content;
          if (delta.role !== undefined) role = delta.role;
          if (choice.finish_reason !== null && choice.finish_reason !== undefined)
            finish = choice.finish_reason;
        }
      }
      expect(role).toBe('assistant');
      expect(finish).toBe('stop');
      expect(text.length).toBeGreaterThan(0);
      // The local backend's text is deterministic: the stream carries the same text as the JSON answer.
      const whole = asRecord(
        await (
          await client().post('/v1/chat/completions', {
            model: 'general-std',
            messages: userMessage,
          })
        ).json(),
      );
      expect(text).toBe(asRecord(asRecord(asArray(whole.choices)[0]).message).content);
      // include_usage: a last chunk with empty choices and the usage.
      const last = chunks.at(-1) as Record<string, unknown>;
      expect(last.choices).toEqual([]);
      const usage = asRecord(last.usage);
      expect(usage.total_tokens).toBe(
        (usage.prompt_tokens as number) + (usage.completion_tokens as number),
      );
    });
  });
}
