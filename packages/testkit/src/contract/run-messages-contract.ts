import Anthropic, { type APIError } from '@anthropic-ai/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { onePixelPngBase64 } from '../vllm-payloads.js';
import { anthropicClient, rejection } from './anthropic-client.js';
import { claudeCodeHeaders, claudeCodeRequest } from './claude-code-request.js';
import { holdToContract } from './hold-to-contract.js';
import { parseSseText } from '../read-sse.js';
import type { LoggedGateway, StartLoggedGateway } from './contract-client.js';
import { describeMessagesUpstreamContract } from './describe-messages-upstream-contract.js';

export interface MessagesContractOptions {
  /** Shown in the suite's title. */
  name: string;
  /** Starts the app from a config-file value; without `upstreams`, the local backend serves every model. */
  start: StartLoggedGateway;
}

const restrictedKey = 'ig-messages-restricted-0123456789abcdef';
const limitedKey = 'ig-messages-limited-0123456789abcdef012';

const weatherTool = {
  name: 'get_weather',
  description: 'The current weather in a city',
  input_schema: {
    type: 'object' as const,
    properties: { city: { type: 'string' } },
    required: ['city'],
  },
};

/**
 * The Messages API as Claude Code and the Anthropic SDK use it, against the local backend (no GPU):
 * the official SDK unchanged for a plain message, a stream read to its end, a tool loop, an image,
 * thinking, count_tokens and an error of each class it maps, then a Claude Code turn as that client
 * sends it. Every answer is held to the route's contract on the way.
 */
export function runMessagesContract(options: MessagesContractOptions): void {
  describe(`Messages API with @anthropic-ai/sdk: ${options.name}`, () => {
    let gateway: LoggedGateway;
    let client: Anthropic;
    const violations: string[] = [];

    beforeAll(async () => {
      gateway = await options.start({
        keys: [
          { key: restrictedKey, name: 'restricted', models: ['general-std'] },
          { key: limitedKey, name: 'limited', limits: { requests_per_minute: 1 } },
        ],
        // What an operator writes so that Claude Code's model names reach self-hosted models.
        virtual_models: {
          'claude-sonnet-4-6': 'alpha35-122b-a10b-instruct-general',
          'claude-haiku-4-5': 'alpha36-35b-a3b-instruct',
        },
        limits: { body_json_bytes: 65_536 },
      });
      client = anthropicClient(gateway, violations);
    });

    afterAll(async () => {
      await gateway?.close();
    });

    afterEach(() => {
      expect(violations).toEqual([]);
    });

    it('messages.create answers a Message; a claude-* name reaches the model virtual_models maps it to', async () => {
      const message = await client.messages.create({
        model: 'claude-haiku-4-5',
        max_tokens: 256,
        system: 'Answer briefly.',
        messages: [{ role: 'user', content: 'Hello' }],
      });
      expect(message.id).toMatch(/^msg_/);
      expect(message.type).toBe('message');
      expect(message.role).toBe('assistant');
      expect(message.model).toBe('alpha36-35b-a3b-instruct');
      expect(message.content).toHaveLength(1);
      const [block] = message.content;
      expect(block?.type === 'text' && block.text.length > 0).toBe(true);
      expect(message.stop_reason).toBe('end_turn');
      expect(message.stop_sequence).toBeNull();
      expect(message.usage.input_tokens).toBeGreaterThan(0);
      expect(message.usage.output_tokens).toBeGreaterThan(0);
      expect(message._request_id).toMatch(/^req_/);
      const logged = gateway.requestLog().find((line) => line.operationId === 'createMessage');
      expect(logged).toMatchObject({ model: 'alpha36-35b-a3b-instruct', status: 200 });
    });

    it('messages.stream read to its end: the events in order, finalMessage() equal to the deltas', async () => {
      const stream = client.messages.stream({
        model: 'general-std',
        max_tokens: 256,
        messages: [{ role: 'user', content: 'Write one sentence.' }],
      });
      const types: string[] = [];
      let deltas = '';
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta')
          deltas += event.delta.text;
      }
      const final = await stream.finalMessage();
      expect(types[0]).toBe('message_start');
      expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
      expect(deltas.length).toBeGreaterThan(0);
      expect(final.content).toEqual([{ type: 'text', text: deltas }]);
      expect(final.stop_reason).toBe('end_turn');
      // The prompt's count arrives in message_delta, and the SDK keeps it.
      expect(final.usage.input_tokens).toBeGreaterThan(0);
    });

    it('runs a tool loop: tool_use (streamed input assembled), tool_result, a final answer', async () => {
      const question = { role: 'user' as const, content: 'What is the weather in Paris?' };
      const first = await client.messages
        .stream({
          model: 'claude-sonnet-4-6',
          max_tokens: 512,
          tools: [weatherTool],
          messages: [question],
        })
        .finalMessage();
      expect(first.stop_reason).toBe('tool_use');
      const call = first.content.find((block) => block.type === 'tool_use');
      if (call?.type !== 'tool_use') throw new Error('expected a tool_use block');
      expect(call.name).toBe('get_weather');
      expect(typeof (call.input as { city?: unknown }).city).toBe('string');
      const final = await client.messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 512,
        tools: [weatherTool],
        messages: [
          question,
          { role: 'assistant', content: first.content },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: call.id, content: 'Sunny, 21 C' }],
          },
        ],
      });
      expect(final.stop_reason).toBe('end_turn');
      const text = final.content.find((block) => block.type === 'text');
      expect(text?.type === 'text' && text.text.includes('Sunny, 21 C')).toBe(true);
    });

    it('takes a base64 image', async () => {
      const message = await client.messages.create({
        model: 'general-std',
        max_tokens: 128,
        messages: [
          {
            role: 'user',
            content: [
              {
                type: 'image',
                source: { type: 'base64', media_type: 'image/png', data: onePixelPngBase64 },
              },
              { type: 'text', text: 'What is in this image?' },
            ],
          },
        ],
      });
      expect(message.content[0]?.type).toBe('text');
      expect(message.usage.input_tokens).toBeGreaterThan(0);
    });

    it('answers thinking blocks on a thinking model, none where the model hides thinking', async () => {
      const request = {
        max_tokens: 2048,
        thinking: { type: 'enabled' as const, budget_tokens: 1024 },
        messages: [{ role: 'user' as const, content: 'What is 2 + 2?' }],
      };
      const shown = await client.messages
        .stream({ model: 'general-std-thinking', ...request })
        .finalMessage();
      expect(shown.content.map((block) => block.type)).toEqual(['thinking', 'text']);
      const [thinking] = shown.content;
      expect(thinking?.type === 'thinking' && thinking.thinking.length > 0).toBe(true);
      const hidden = await client.messages.create({ model: 'general-max-thinking', ...request });
      expect(hidden.content.map((block) => block.type)).toEqual(['text']);
      // A model that does not think says so in a header rather than refusing Claude Code's setting.
      const { response } = await client.messages
        .create({ model: 'general-std', ...request })
        .withResponse();
      expect(response.headers.get('x-infergate-ignored-params')).toBe('thinking');
    });

    it('count_tokens counts what the model reads: the same prompt tokens as the answer reports', async () => {
      const prompt = {
        model: 'general-pro',
        system: 'You are terse.',
        tools: [weatherTool],
        messages: [{ role: 'user' as const, content: 'Weather in Oslo?' }],
      };
      const counted = await client.messages.countTokens(prompt);
      const answered = await client.messages.create({ ...prompt, max_tokens: 64 });
      expect(counted.input_tokens).toBe(answered.usage.input_tokens);
      const withoutTools = await client.messages.countTokens({ ...prompt, tools: [] });
      expect(withoutTools.input_tokens).toBeLessThan(counted.input_tokens);
    });

    it("maps each error to the SDK's class: 400, 401, 403, 404, 413, 429", async () => {
      const badRequest = await rejection(
        client.messages.create({
          model: 'general-std',
          max_tokens: 16,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
              ],
            },
          ],
        }),
      );
      expect(badRequest).toBeInstanceOf(Anthropic.BadRequestError);
      expect((badRequest as APIError).type).toBe('invalid_request_error');
      expect((badRequest as APIError).message).toContain('messages[0].content[0].source.url');
      const unauthorized = await rejection(
        anthropicClient(gateway, violations, 'wrong-key').messages.countTokens({
          model: 'general-std',
          messages: [{ role: 'user', content: 'x' }],
        }),
      );
      expect(unauthorized).toBeInstanceOf(Anthropic.AuthenticationError);
      expect((unauthorized as APIError).type).toBe('authentication_error');
      // Refused before the body is read, and still with the id the SDK reports.
      expect((unauthorized as APIError).requestID).toMatch(/^req_/);
      const forbidden = await rejection(
        anthropicClient(gateway, violations, restrictedKey).messages.create({
          model: 'general-pro',
          max_tokens: 16,
          messages: [{ role: 'user', content: 'x' }],
        }),
      );
      expect(forbidden).toBeInstanceOf(Anthropic.PermissionDeniedError);
      const notFound = await rejection(
        client.messages.create({
          model: 'claude-opus-unmapped',
          max_tokens: 16,
          messages: [{ role: 'user', content: 'x' }],
        }),
      );
      expect(notFound).toBeInstanceOf(Anthropic.NotFoundError);
      expect((notFound as APIError).requestID).toMatch(/^req_/);
      const tooLarge = await rejection(
        client.messages.countTokens({
          model: 'general-std',
          messages: [{ role: 'user', content: 'x'.repeat(100_000) }],
        }),
      );
      expect(tooLarge).toBeInstanceOf(Anthropic.ContentTooLargeError);
      const limited = anthropicClient(gateway, violations, limitedKey);
      const count = { model: 'general-std', messages: [{ role: 'user' as const, content: 'x' }] };
      await limited.messages.countTokens(count);
      const rateLimited = await rejection(limited.messages.countTokens(count));
      expect(rateLimited).toBeInstanceOf(Anthropic.RateLimitError);
      expect((rateLimited as APIError).headers?.get('retry-after')).toMatch(/^\d+$/);
    });

    it('answers a Claude Code turn (?beta=true, anthropic-beta, cached system blocks, many tools) with a well-formed stream', async () => {
      const url = `${gateway.baseUrl}/v1/messages?beta=true`;
      const response = await holdToContract(
        'POST',
        url,
        await fetch(url, {
          method: 'POST',
          headers: {
            ...claudeCodeHeaders,
            'content-type': 'application/json',
            'x-api-key': gateway.apiKey,
          },
          body: JSON.stringify(claudeCodeRequest('claude-sonnet-4-6')),
        }),
        (violation) => violations.push(violation),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const events = parseSseText(await response.text());
      const types = events.map((event) => event.event);
      expect(types[0]).toBe('message_start');
      expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
      const opened = events.filter((event) => event.event === 'content_block_start').length;
      expect(opened).toBeGreaterThan(0);
      expect(events.filter((event) => event.event === 'content_block_stop')).toHaveLength(opened);
      // The SDK's beta surface, which Claude Code calls, reads the same turn to a final message.
      const final = await client.beta.messages
        .stream({
          ...(claudeCodeRequest(
            'claude-sonnet-4-6',
          ) as unknown as Anthropic.Beta.MessageCreateParams),
          betas: ['claude-code-20250219', 'interleaved-thinking-2025-05-14'],
        })
        .finalMessage();
      expect(['end_turn', 'tool_use']).toContain(final.stop_reason);
    });
  });

  describeMessagesUpstreamContract(options.start);
}
