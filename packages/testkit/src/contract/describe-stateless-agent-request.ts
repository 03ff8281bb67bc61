import { describe, expect } from 'vitest';
import {
  lookupOrder,
  orderQuestion,
  orderToolDescription,
  orderToolName,
  orderToolParameters,
  trackingCode,
} from './agent-fixtures.js';
import { asArray, asRecord, type StartedGateway } from './contract-client.js';
import { itWithExchanges } from './exchange-log.js';
import { readSse } from '../read-sse.js';

type Item = Record<string, unknown>;

interface StreamedTurn {
  types: string[];
  response: Record<string, unknown>;
  output: Item[];
}

/** What a coding agent sends on every turn: nothing stored, the whole history resent, reasoning asked for. */
const agentRequest = {
  model: 'beta53-flash-agent',
  instructions: 'You are a coding agent. Use the tools you are given.',
  store: false,
  stream: true,
  include: ['reasoning.encrypted_content'],
  reasoning: { effort: 'low', summary: 'auto' },
  tools: [
    {
      type: 'function',
      name: orderToolName,
      description: orderToolDescription,
      strict: false,
      parameters: {
        type: 'object',
        properties: { orderId: { type: 'string', description: 'the order id, e.g. A-1001' } },
        required: ['orderId'],
        additionalProperties: false,
      },
    },
  ],
  tool_choice: 'auto',
  parallel_tool_calls: false,
  prompt_cache_key: 'session-7f3a',
};

function userMessage(text: string): Item {
  return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
}

async function streamTurn(
  gateway: StartedGateway,
  fetch: typeof globalThis.fetch,
  input: Item[],
): Promise<StreamedTurn> {
  const response = await fetch(`${gateway.baseUrl}/v1/responses`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${gateway.apiKey}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ ...agentRequest, input }),
  });
  expect(response.status, 'status of the streamed /v1/responses call').toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events = (await readSse(response)).events.map((event) => asRecord(JSON.parse(event.data)));
  const types = events.map((event) => String(event.type));
  expect(types[0]).toBe('response.created');
  expect(types.at(-1)).toBe('response.completed');
  const completed = asRecord(events.at(-1)?.response);
  expect(completed.status).toBe('completed');
  return { types, response: completed, output: asArray(completed.output).map(asRecord) };
}

function outputText(output: readonly Item[]): string {
  return output
    .filter((item) => item.type === 'message')
    .flatMap((item) => asArray(item.content).map(asRecord))
    .map((part) => String(part.text ?? ''))
    .join('');
}

/**
 * A raw request as coding agents (Codex-style clients) send it over plain fetch: `store: false`, the
 * previous turns' output items replayed as input exactly as the gateway emitted them, streamed.
 */
export function describeStatelessAgentRequest(gateway: () => StartedGateway): void {
  describe('raw stateless /v1/responses turns, as coding agents send them', () => {
    itWithExchanges(
      'replays reasoning, function_call, function_call_output and assistant message items across turns',
      gateway,
      async ({ gateway, fetch }) => {
        const question = userMessage(orderQuestion);
        const first = await streamTurn(gateway, fetch, [question]);
        expect(first.types).toContain('response.function_call_arguments.done');
        expect(first.output.map((item) => item.type)).toContain('reasoning');
        const call = first.output.find((item) => item.type === 'function_call');
        expect(call?.name).toBe(orderToolName);
        const toolOutput = lookupOrder(
          orderToolParameters.parse(JSON.parse(String(call?.arguments))),
        );
        const afterCall = [
          question,
          ...first.output,
          { type: 'function_call_output', call_id: call?.call_id, output: toolOutput },
        ];

        const second = await streamTurn(gateway, fetch, afterCall);
        expect(second.types).toContain('response.output_text.done');
        expect(outputText(second.output)).toContain(trackingCode);
        expect(second.output.map((item) => item.type)).toContain('message');

        // The assistant's message and reasoning from the second turn go back too, with their ids and statuses.
        const third = await streamTurn(gateway, fetch, [
          ...afterCall,
          ...second.output,
          userMessage('Thanks. Check it once more.'),
        ]);
        expect(third.output.find((item) => item.type === 'function_call')?.name).toBe(
          orderToolName,
        );
      },
    );
  });
}
