import { createOpenAI } from '@ai-sdk/openai';
import {
  generateObject,
  generateText,
  stepCountIs,
  streamText,
  tool,
  type LanguageModel,
  type ModelMessage,
} from 'ai';
import { describe, expect } from 'vitest';
import {
  expectValid,
  followUpQuestion,
  lookupOrder,
  moviePrompt,
  movieSchema,
  orderQuestion,
  orderToolDescription,
  orderToolName,
  orderToolParameters,
  trackingCode,
} from './agent-fixtures.js';
import type { StartedGateway } from './contract-client.js';
import { itWithExchanges } from './exchange-log.js';

type ProviderOptions = Parameters<typeof generateText>[0]['providerOptions'];

interface ModelUnderTest {
  model: LanguageModel;
  providerOptions: ProviderOptions;
  maxRetries: number;
}

function modelFor(
  gateway: StartedGateway,
  fetch: typeof globalThis.fetch,
  mode: 'responses' | 'chat',
): ModelUnderTest {
  const provider = createOpenAI({
    baseURL: `${gateway.baseUrl}/v1`,
    apiKey: gateway.apiKey,
    fetch,
  });
  if (mode === 'chat')
    return { model: provider.chat('general-std'), providerOptions: undefined, maxRetries: 0 };
  // The gateway keeps no state: with store left on, the provider sends earlier output items as
  // `item_reference`s to stored items. `store: false` makes it send them whole, as the AI SDK
  // documents for stateless (zero data retention) use of the responses API.
  return {
    model: provider.responses('general-std'),
    providerOptions: { openai: { store: false } },
    maxRetries: 0,
  };
}

const tools = {
  [orderToolName]: tool({
    description: orderToolDescription,
    inputSchema: orderToolParameters,
    execute: async (input) => lookupOrder(input),
  }),
};

/** The Vercel AI SDK (`ai` with `@ai-sdk/openai`), unchanged, over the responses model (the provider's default) and the chat model. */
export function describeAiSdkClients(gateway: () => StartedGateway): void {
  describe('ai (Vercel AI SDK) with @ai-sdk/openai', () => {
    for (const mode of ['responses', 'chat'] as const) {
      describe(`provider.${mode}(model)`, () => {
        itWithExchanges(
          'generateText runs a multi-step tool loop until stopWhen',
          gateway,
          async ({ gateway, fetch }) => {
            const settings = modelFor(gateway, fetch, mode);
            const result = await generateText({
              ...settings,
              tools,
              stopWhen: stepCountIs(4),
              prompt: orderQuestion,
            });
            expect(result.steps[0]?.toolCalls.map((call) => call.toolName)).toEqual([
              orderToolName,
            ]);
            expect(result.steps[0]?.toolResults[0]?.output).toContain(trackingCode);
            expect(result.steps.length).toBeGreaterThanOrEqual(2);
            expect(result.finishReason).toBe('stop');
            expect(result.text).toContain(trackingCode);
          },
        );

        itWithExchanges(
          'streamText runs the same loop, read to the end',
          gateway,
          async ({ gateway, fetch }) => {
            const settings = modelFor(gateway, fetch, mode);
            // streamText reports a failed call as an error part in the stream, never as a rejection.
            const result = streamText({
              ...settings,
              tools,
              stopWhen: stepCountIs(4),
              prompt: orderQuestion,
              onError: () => undefined,
            });
            const parts = new Set<string>();
            const errors: unknown[] = [];
            for await (const part of result.fullStream) {
              parts.add(part.type);
              if (part.type === 'error') errors.push(part.error);
            }
            expect(errors).toEqual([]);
            expect(parts).toContain('tool-call');
            expect(parts).toContain('tool-result');
            expect(parts).toContain('text-delta');
            expect(parts).toContain('finish');
            expect(await result.finishReason).toBe('stop');
            expect(await result.text).toContain(trackingCode);
          },
        );

        itWithExchanges(
          'generateObject returns an object valid for the zod schema',
          gateway,
          async ({ gateway, fetch }) => {
            const settings = modelFor(gateway, fetch, mode);
            const result = await generateObject({
              ...settings,
              schema: movieSchema,
              prompt: moviePrompt,
            });
            expectValid(movieSchema, result.object);
          },
        );

        itWithExchanges(
          'answers a second turn that replays response.messages',
          gateway,
          async ({ gateway, fetch }) => {
            const settings = modelFor(gateway, fetch, mode);
            const history: ModelMessage[] = [{ role: 'user', content: orderQuestion }];
            const first = await generateText({
              ...settings,
              tools,
              stopWhen: stepCountIs(4),
              messages: history,
            });
            expect(first.response.messages.some((message) => message.role === 'tool')).toBe(true);
            const messages: ModelMessage[] = [
              ...history,
              ...first.response.messages,
              { role: 'user', content: followUpQuestion },
            ];
            const second = await generateText({
              ...settings,
              tools,
              stopWhen: stepCountIs(4),
              messages,
            });
            expect(second.finishReason).toBe('stop');
            expect(second.text).toContain(trackingCode);
          },
        );
      });
    }
  });
}
