import Anthropic, { type APIError } from '@anthropic-ai/sdk';
import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defaultUpstreamHandlers } from '../default-upstream-handlers.js';
import { closedPort } from '../fault-matrix/describe-upstream-rows.js';
import type { RecordedRequest } from '../recorded-request.js';
import { startRecordingUpstream, type RecordingUpstream } from '../start-recording-upstream.js';
import { upstreamsServingEverything } from '../upstreams-serving-everything.js';
import { chatStreamChunks, onePixelPngBase64 } from '../vllm-payloads.js';
import { writeJson } from '../write-json.js';
import { anthropicClient, rejection } from './anthropic-client.js';
import type { LoggedGateway, StartLoggedGateway } from './contract-client.js';

type UpstreamMode = 'ok' | 'fail' | 'cut-stream';

// Served by an upstream nothing listens on: a virtual model that lists it first falls back.
const unreachable = 'beta53-flash-chat-low';
const fallback = 'alpha35-122b-a10b-instruct-general';

const image = {
  type: 'base64' as const,
  media_type: 'image/png' as const,
  data: onePixelPngBase64,
};
const dataUrl = `data:image/png;base64,${onePixelPngBase64}`;

/**
 * What each Messages feature becomes upstream: the exact chat request a recording upstream receives
 * for a request the Anthropic SDK sends, the model rules applied to it, and upstream failures as the
 * SDK raises them.
 */
export function describeMessagesUpstreamContract(start: StartLoggedGateway): void {
  describe('Messages API: the chat request each feature becomes', () => {
    let upstream: RecordingUpstream;
    let gateway: LoggedGateway;
    let client: Anthropic;
    let mode: UpstreamMode = 'ok';
    let holdUntil: Promise<void> | undefined;
    const violations: string[] = [];

    const chat = async (request: RecordedRequest, response: ServerResponse): Promise<void> => {
      // Held until the test lets it go: the request keeps its admission slot meanwhile.
      await holdUntil;
      if (mode === 'fail') {
        writeJson(response, 500, { error: { message: 'engine died', type: 'Error', param: null } });
        return;
      }
      if (mode === 'cut-stream') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const [role, first] = chatStreamChunks('m', ['Hel', 'lo'], false);
        response.write(`data: ${JSON.stringify(role)}\n\ndata: ${JSON.stringify(first)}\n\n`);
        response.destroy();
        return;
      }
      await defaultUpstreamHandlers['POST /v1/chat/completions']?.(request, response);
    };

    function lastChat(): Record<string, unknown> {
      return upstream.requestsTo('/v1/chat/completions').at(-1)?.body as Record<string, unknown>;
    }

    beforeAll(async () => {
      upstream = await startRecordingUpstream({ handlers: { 'POST /v1/chat/completions': chat } });
      const upstreams = upstreamsServingEverything(upstream.url);
      for (const entry of upstreams) delete entry.models[unreachable];
      upstreams.push({
        name: 'up-dead',
        url: `http://127.0.0.1:${String(await closedPort())}`,
        protocol: 'openai',
        models: { [unreachable]: unreachable },
      });
      gateway = await start({
        upstreams,
        virtual_models: { 'claude-with-fallback': { models: [unreachable, fallback] } },
        retries: { attempts: 0 },
        // One request at a time, so that the last test can fill the gateway.
        limits: { max_concurrent_requests: 1 },
      });
      client = anthropicClient(gateway, violations);
    });

    afterAll(async () => {
      await gateway?.close();
      await upstream?.close();
    });

    beforeEach(() => {
      mode = 'ok';
    });

    afterEach(() => {
      expect(violations).toEqual([]);
    });

    it('sends system, images, a tool loop, tools, tool_choice, stop and sampling as chat fields', async () => {
      // temperature, top_p and top_k are Messages API fields the SDK's types no longer list; it sends them as given.
      await client.messages.create({
        model: 'general-pro',
        max_tokens: 300,
        system: [{ type: 'text', text: 'Be exact.', cache_control: { type: 'ephemeral' } }],
        temperature: 0.3,
        top_p: 0.9,
        top_k: 20,
        stop_sequences: ['###'],
        metadata: { user_id: 'user-1' },
        tools: [
          {
            name: 'lookup',
            description: 'Looks a word up',
            input_schema: { type: 'object', properties: { word: { type: 'string' } } },
          },
        ],
        tool_choice: { type: 'any', disable_parallel_tool_use: true },
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: image },
              { type: 'text', text: 'Name this.' },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'Look it up.', signature: 'sig' },
              { type: 'tool_use', id: 'toolu_01', name: 'lookup', input: { word: 'pixel' } },
            ],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'toolu_01',
                content: 'not found',
                is_error: true,
              },
            ],
          },
        ],
      } as Anthropic.MessageCreateParamsNonStreaming);
      expect(lastChat()).toEqual({
        model: 'alpha35-122b-a10b-instruct-general',
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'Be exact.' }] },
          {
            role: 'user',
            content: [
              { type: 'image_url', image_url: { url: dataUrl } },
              { type: 'text', text: 'Name this.' },
            ],
          },
          {
            role: 'assistant',
            tool_calls: [
              {
                id: 'toolu_01',
                type: 'function',
                function: { name: 'lookup', arguments: '{"word":"pixel"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'toolu_01', content: 'Error: not found' },
        ],
        max_tokens: 300,
        temperature: 0.3,
        top_p: 0.9,
        top_k: 20,
        stop: ['###'],
        tools: [
          {
            type: 'function',
            function: {
              name: 'lookup',
              description: 'Looks a word up',
              parameters: { type: 'object', properties: { word: { type: 'string' } } },
            },
          },
        ],
        tool_choice: 'required',
        parallel_tool_calls: false,
      });
    });

    it('asks for a stream with usage, which message_delta reports', async () => {
      const final = await client.messages
        .stream({
          model: 'general-std',
          max_tokens: 32,
          messages: [{ role: 'user', content: 'Hi' }],
        })
        .finalMessage();
      expect(lastChat()).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      expect(final.usage.input_tokens).toBeGreaterThan(0);
    });

    it("applies the model's thinking rule, not the request's thinking setting", async () => {
      const messages = [{ role: 'user' as const, content: 'Hi' }];
      await client.messages.create({
        model: 'general-std-thinking',
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages,
      });
      expect(lastChat().chat_template_kwargs).toEqual({ enable_thinking: true });
      expect(lastChat()).not.toHaveProperty('thinking');
      const { response } = await client.messages
        .create({
          model: 'general-std-thinking',
          max_tokens: 64,
          thinking: { type: 'disabled' },
          messages,
        })
        .withResponse();
      expect(lastChat().chat_template_kwargs).toEqual({ enable_thinking: true });
      expect(response.headers.get('x-infergate-ignored-params')).toBe('thinking');
      await client.messages.create({ model: 'coding-max-thinking', max_tokens: 64, messages });
      expect(lastChat().chat_template_kwargs).toEqual({
        enable_thinking: true,
        clear_thinking: false,
        reasoning_effort: 'max',
      });
    });

    it('sends output_config.effort as the beta53 reasoning effort, and its format as response_format', async () => {
      const messages = [{ role: 'user' as const, content: 'Hi' }];
      const schema = { type: 'object', properties: { answer: { type: 'string' } } };
      await client.messages.create({
        model: 'coding-max-thinking',
        max_tokens: 64,
        output_config: { effort: 'low', format: { type: 'json_schema', schema } },
        messages,
      });
      expect(lastChat().chat_template_kwargs).toEqual({
        enable_thinking: true,
        clear_thinking: false,
        reasoning_effort: 'low',
      });
      expect(lastChat().response_format).toEqual({
        type: 'json_schema',
        json_schema: { name: 'output', schema },
      });
      const { response } = await client.messages
        .create({
          model: 'general-std',
          max_tokens: 64,
          output_config: { effort: 'low' },
          messages,
        })
        .withResponse();
      expect(lastChat()).not.toHaveProperty('chat_template_kwargs');
      expect(response.headers.get('x-infergate-ignored-params')).toBe('output_config.effort');
      const refused = await rejection(
        client.messages.create({
          model: 'coding-max-thinking',
          max_tokens: 64,
          output_config: { effort: 'medium' },
          messages,
        }),
      );
      expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
      expect((refused as APIError).message).toContain('output_config.effort');
    });

    it('drops sampling on backend-enforced models and names what it dropped', async () => {
      const { response } = await client.messages
        .create({
          model: 'coding-std-thinking',
          max_tokens: 64,
          temperature: 0.2,
          top_k: 5,
          messages: [{ role: 'user', content: 'Hi' }],
        } as Anthropic.MessageCreateParamsNonStreaming)
        .withResponse();
      expect(lastChat()).not.toHaveProperty('temperature');
      expect(lastChat()).not.toHaveProperty('top_k');
      expect(response.headers.get('x-infergate-ignored-params')).toBe('temperature, top_k');
    });

    it("count_tokens asks the model server's /tokenize in its chat form", async () => {
      await client.messages.countTokens({
        model: 'general-std',
        system: 'S',
        tools: [{ name: 'f', input_schema: { type: 'object' } }],
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(upstream.requestsTo('/tokenize').at(-1)?.body).toEqual({
        model: 'alpha36-35b-a3b-instruct',
        messages: [
          { role: 'system', content: 'S' },
          { role: 'user', content: 'Hi' },
        ],
        tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      });
    });

    it("falls back through a virtual model's list before the first byte, streamed or not", async () => {
      const request = {
        model: 'claude-with-fallback',
        max_tokens: 32,
        messages: [{ role: 'user' as const, content: 'Hi' }],
      };
      const { data, response } = await client.messages.create(request).withResponse();
      expect(data.model).toBe(fallback);
      expect(response.headers.get('x-infergate-fallback')).toBe(`${unreachable}=connection`);
      const streamed = await client.messages.stream(request).finalMessage();
      expect(streamed.model).toBe(fallback);
      expect(streamed.stop_reason).toBe('end_turn');
    });

    it('raises an upstream failure as InternalServerError, and one after the first byte as an error event', async () => {
      mode = 'fail';
      const failed = await rejection(
        client.messages.create({
          model: 'general-std',
          max_tokens: 16,
          messages: [{ role: 'user', content: 'x' }],
        }),
      );
      expect(failed).toBeInstanceOf(Anthropic.InternalServerError);
      expect((failed as APIError).status).toBe(502);
      expect((failed as APIError).type).toBe('api_error');
      mode = 'cut-stream';
      const cut = await rejection(
        client.messages
          .stream({
            model: 'general-std',
            max_tokens: 16,
            messages: [{ role: 'user', content: 'x' }],
          })
          .finalMessage(),
      );
      expect(cut).toBeInstanceOf(Anthropic.APIError);
      expect((cut as APIError).type).toBe('api_error');
    });

    // Last: the request it holds is given back as the test ends.
    it('answers 529, which the SDK raises as OverloadedError, while the gateway is full', async () => {
      let letGo = (): void => {};
      holdUntil = new Promise((resolve) => {
        letGo = resolve;
      });
      upstream.clear();
      const held = client.messages.create({
        model: 'general-std',
        max_tokens: 16,
        messages: [{ role: 'user', content: 'x' }],
      });
      await upstream.waitForRequest((request) => request.path === '/v1/chat/completions');
      try {
        const overloaded = await rejection(
          client.messages.countTokens({
            model: 'general-std',
            messages: [{ role: 'user', content: 'x' }],
          }),
        );
        expect(overloaded).toBeInstanceOf(Anthropic.OverloadedError);
        expect((overloaded as APIError).status).toBe(529);
        expect((overloaded as APIError).type).toBe('overloaded_error');
      } finally {
        letGo();
        holdUntil = undefined;
      }
      // The held request then completes as usual.
      expect((await held).stop_reason).toBe('end_turn');
    });
  });
}
