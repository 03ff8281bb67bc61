import OpenAI from 'openai';
import { zodResponseFormat, zodTextFormat } from 'openai/helpers/zod';
import { describe, expect } from 'vitest';
import { expectValid, moviePrompt, movieSchema } from './agent-fixtures.js';
import type { StartedGateway } from './contract-client.js';
import { itWithExchanges } from './exchange-log.js';

function openaiClient(gateway: StartedGateway, fetch: typeof globalThis.fetch): OpenAI {
  return new OpenAI({
    baseURL: `${gateway.baseUrl}/v1`,
    apiKey: gateway.apiKey,
    maxRetries: 0,
    fetch,
  });
}

/** The official client's structured-output helpers with zod formats (`openai/helpers/zod`), unchanged. */
export function describeOpenAIParseClients(gateway: () => StartedGateway): void {
  describe('openai structured output helpers', () => {
    itWithExchanges(
      'responses.parse with zodTextFormat fills output_parsed',
      gateway,
      async ({ gateway, fetch }) => {
        const response = await openaiClient(gateway, fetch).responses.parse({
          model: 'general-std',
          input: moviePrompt,
          text: { format: zodTextFormat(movieSchema, 'movie') },
        });
        expect(response.status).toBe('completed');
        expectValid(movieSchema, response.output_parsed);
      },
    );

    itWithExchanges(
      'chat.completions.parse with zodResponseFormat fills message.parsed',
      gateway,
      async ({ gateway, fetch }) => {
        const completion = await openaiClient(gateway, fetch).chat.completions.parse({
          model: 'general-std',
          messages: [{ role: 'user', content: moviePrompt }],
          response_format: zodResponseFormat(movieSchema, 'movie'),
        });
        expect(completion.choices[0]?.finish_reason).toBe('stop');
        expectValid(movieSchema, completion.choices[0]?.message.parsed);
      },
    );
  });
}
