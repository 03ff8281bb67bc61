import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/gateway-error.js';
import { parseRequestBody } from './parse-request-body.js';
import {
  messagesCountTokensRequestSchema,
  messagesRequestSchema,
} from './messages-request-schema.js';

function refusal(body: unknown): GatewayError {
  try {
    parseRequestBody(messagesRequestSchema, JSON.stringify(body));
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const base = { model: 'm', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] };

describe('messagesRequestSchema', () => {
  it('accepts what Claude Code sends: system blocks with cache_control, tools, thinking, metadata', () => {
    const request = parseRequestBody(
      messagesRequestSchema,
      JSON.stringify({
        ...base,
        system: [{ type: 'text', text: 'You are an agent.', cache_control: { type: 'ephemeral' } }],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Go', cache_control: { type: 'ephemeral', ttl: '1h' } },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'plan', signature: 'sig' },
              { type: 'redacted_thinking', data: 'xyz' },
              { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_1', content: 'text', is_error: false },
            ],
          },
        ],
        tools: [
          {
            name: 'Read',
            description: 'Reads a file',
            input_schema: { type: 'object', properties: { path: { type: 'string' } } },
            cache_control: { type: 'ephemeral' },
          },
        ],
        tool_choice: { type: 'auto', disable_parallel_tool_use: true },
        thinking: { type: 'enabled', budget_tokens: 2048 },
        metadata: { user_id: 'user_abc' },
        stream: true,
        temperature: 1,
        context_management: { edits: [] },
      }),
    );
    expect(request.system).toEqual([{ type: 'text', text: 'You are an agent.' }]);
    expect(request.messages[1]?.content).toHaveLength(3);
  });

  it('requires max_tokens, as the Messages API does', () => {
    const error = refusal({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] });
    expect(error.status).toBe(400);
    expect(error.param).toBe('max_tokens');
    expect(error.code).toBe('missing_parameter');
  });

  it('refuses unknown top-level fields by name', () => {
    expect(refusal({ ...base, frequency_penalty: 1 }).param).toBe('frequency_penalty');
  });

  it('refuses server tools naming tools[i].type', () => {
    const error = refusal({
      ...base,
      tools: [
        { name: 'f', input_schema: { type: 'object' } },
        { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
      ],
    });
    expect(error.param).toBe('tools[1].type');
    expect(error.message).toContain('web_search_20250305');
  });

  it('refuses image URL sources and block types it cannot bridge, naming the field', () => {
    const url = refusal({
      ...base,
      messages: [
        {
          role: 'user',
          content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }],
        },
      ],
    });
    expect(url.param).toBe('messages[0].content[0].source.url');
    const document = refusal({
      ...base,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'x' } },
          ],
        },
      ],
    });
    expect(document.param).toBe('messages[0].content[0].type');
    expect(document.message).toContain("'document'");
  });

  it('refuses temperature above 1 (the Messages range) and a tool_choice naming no tool', () => {
    expect(refusal({ ...base, temperature: 1.5 }).param).toBe('temperature');
    const choice = refusal({
      ...base,
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      tool_choice: { type: 'tool', name: 'g' },
    });
    expect(choice.param).toBe('tool_choice.name');
  });

  it('refuses what needs Anthropic-hosted execution', () => {
    expect(refusal({ ...base, mcp_servers: [{ type: 'url', url: 'x', name: 'n' }] }).param).toBe(
      'mcp_servers',
    );
  });

  it('count_tokens takes the prompt fields without max_tokens', () => {
    const request = parseRequestBody(
      messagesCountTokensRequestSchema,
      JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], system: 'S' }),
    );
    expect(request.system).toBe('S');
  });
});
