import {
  Agent,
  OpenAIChatCompletionsModel,
  OpenAIResponsesModel,
  run,
  setTracingDisabled,
  tool,
  type Model,
} from '@openai/agents';
import OpenAI from 'openai';
import { beforeAll, describe, expect } from 'vitest';
import {
  followUpQuestion,
  lookupOrder,
  orderQuestion,
  orderToolDescription,
  orderToolName,
  orderToolParameters,
  trackingCode,
} from './agent-fixtures.js';
import type { StartedGateway } from './contract-client.js';
import { itWithExchanges } from './exchange-log.js';

const modes = {
  // The SDK's default model kind.
  responses: (client: OpenAI, model: string): Model => new OpenAIResponsesModel(client, model),
  chat: (client: OpenAI, model: string): Model => new OpenAIChatCompletionsModel(client, model),
} as const;

function orderAgent(
  gateway: StartedGateway,
  fetch: typeof globalThis.fetch,
  mode: keyof typeof modes,
): Agent {
  // A model instance per agent rather than setDefaultOpenAIClient / setOpenAIAPI: nothing global leaks between tests.
  const client = new OpenAI({
    baseURL: `${gateway.baseUrl}/v1`,
    apiKey: gateway.apiKey,
    maxRetries: 0,
    fetch,
  });
  const lookup = tool({
    name: orderToolName,
    description: orderToolDescription,
    parameters: orderToolParameters,
    execute: lookupOrder,
  });
  return new Agent({
    name: 'Order desk',
    instructions: 'You answer questions about orders with the lookup_order tool.',
    model: modes[mode](client, 'general-std'),
    tools: [lookup],
  });
}

/** The OpenAI Agents SDK (`@openai/agents`), unchanged, in its responses (default) and chat modes. */
export function describeOpenAIAgentsClients(gateway: () => StartedGateway): void {
  describe('@openai/agents', () => {
    beforeAll(() => {
      // Traces would be exported to OpenAI's servers; a gateway user without that account turns them off.
      setTracingDisabled(true);
    });

    for (const mode of ['responses', 'chat'] as const) {
      describe(`${mode} model`, () => {
        itWithExchanges(
          'runs a tool loop to a final answer that uses the tool result',
          gateway,
          async ({ gateway, fetch }) => {
            const result = await run(orderAgent(gateway, fetch, mode), orderQuestion);
            expect(result.newItems.some((item) => item.type === 'tool_call_item')).toBe(true);
            expect(result.newItems.some((item) => item.type === 'tool_call_output_item')).toBe(
              true,
            );
            expect(result.finalOutput).toContain(trackingCode);
          },
        );

        itWithExchanges(
          "answers a second turn sent as the first run's result.history",
          gateway,
          async ({ gateway, fetch }) => {
            const agent = orderAgent(gateway, fetch, mode);
            const first = await run(agent, orderQuestion);
            const second = await run(agent, [
              ...first.history,
              { role: 'user', content: followUpQuestion },
            ]);
            expect(second.finalOutput).toContain(trackingCode);
            expect(second.history.length).toBeGreaterThan(first.history.length + 1);
          },
        );

        itWithExchanges(
          'streams a run with a tool call to its end',
          gateway,
          async ({ gateway, fetch }) => {
            const result = await run(orderAgent(gateway, fetch, mode), orderQuestion, {
              stream: true,
            });
            const kinds = new Set<string>();
            for await (const event of result)
              kinds.add(event.type === 'run_item_stream_event' ? event.name : event.type);
            await result.completed;
            expect(result.error).toBeNull();
            expect(kinds).toContain('raw_model_stream_event');
            expect(kinds).toContain('tool_called');
            expect(kinds).toContain('tool_output');
            expect(result.finalOutput).toContain(trackingCode);
          },
        );
      });
    }
  });
}
