import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect } from 'vitest';
import {
  expectValid,
  lookupOrder,
  moviePrompt,
  movieSchema,
  orderQuestion,
  orderToolDescription,
  orderToolName,
  orderToolParameters,
} from './agent-fixtures.js';
import type { StartedGateway } from './contract-client.js';
import { itWithExchanges } from './exchange-log.js';

function chatModel(
  gateway: StartedGateway,
  fetch: typeof globalThis.fetch,
  mode: 'responses' | 'chat',
): ChatOpenAI {
  return new ChatOpenAI({
    model: 'general-std',
    apiKey: gateway.apiKey,
    configuration: { baseURL: `${gateway.baseUrl}/v1`, fetch },
    useResponsesApi: mode === 'responses',
    maxRetries: 0,
  });
}

const lookup = tool(lookupOrder, {
  name: orderToolName,
  description: orderToolDescription,
  schema: orderToolParameters,
});

/** LangChain's `ChatOpenAI` (`@langchain/openai`), unchanged, with `useResponsesApi` on and off. */
export function describeLangChainClients(gateway: () => StartedGateway): void {
  describe('@langchain/openai ChatOpenAI', () => {
    for (const mode of ['responses', 'chat'] as const) {
      describe(`${mode} API`, () => {
        itWithExchanges('invoke answers text', gateway, async ({ gateway, fetch }) => {
          const message = await chatModel(gateway, fetch, mode).invoke(
            'Write one sentence about the sea.',
          );
          expect(message.text.length).toBeGreaterThan(0);
          expect(message.tool_calls ?? []).toEqual([]);
        });

        itWithExchanges(
          'bindTools: the answer carries a tool call with arguments valid for the tool',
          gateway,
          async ({ gateway, fetch }) => {
            const message = await chatModel(gateway, fetch, mode)
              .bindTools([lookup])
              .invoke(orderQuestion);
            const call = message.tool_calls?.[0];
            expect(call?.name).toBe(orderToolName);
            expect(typeof call?.id).toBe('string');
            expectValid(orderToolParameters, call?.args);
          },
        );

        itWithExchanges(
          'withStructuredOutput(zod schema) returns a valid object',
          gateway,
          async ({ gateway, fetch }) => {
            const movie = await chatModel(gateway, fetch, mode)
              .withStructuredOutput(movieSchema, { name: 'movie' })
              .invoke(moviePrompt);
            expectValid(movieSchema, movie);
          },
        );
      });
    }
  });
}
