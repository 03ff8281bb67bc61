import { describe, expect, it } from 'vitest';
import { schemaErrors } from './check-json-schema.js';
import { readSse } from './read-sse.js';
import { postJson, useTestServer } from './test-server.js';
import type { ChatChunk, ChatCompletion, VllmErrorBody } from './wire-types.js';

const model = 'alpha36-35b-a3b-instruct';
const server = useTestServer();
const chat = <T = ChatCompletion>(body: Record<string, unknown>) =>
  postJson<T>(`${server.url()}/v1/chat/completions`, { model, ...body });
const ask = (content: string) => [{ role: 'user', content }];
const prompt = 'Write a report about the harbour lighthouse keepers of Brittany';

const person = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    age: { type: 'integer', minimum: 18, maximum: 99 },
  },
  required: ['name', 'age'],
  additionalProperties: false,
};

/** Every keyword the local backend promises, in the shapes zod-to-JSON-schema and the OpenAI clients emit. */
const reportSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 80, maxLength: 90 },
    code: { type: 'string', maxLength: 3 },
    slug: { type: 'string', pattern: '^[a-z]+$' },
    status: { type: 'string', enum: ['draft', 'published'] },
    kind: { const: 'report' },
    count: { type: 'integer', minimum: 3, maximum: 9 },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    below: { type: 'number', maximum: -5 },
    step: { type: 'integer', minimum: 1, multipleOf: 5 },
    flag: { type: 'boolean' },
    nothing: { type: 'null' },
    nickname: { type: ['string', 'null'] },
    tags: { type: 'array', items: { type: 'string', maxLength: 12 }, minItems: 2, maxItems: 4 },
    levels: {
      type: 'array',
      items: { type: 'string', enum: ['low', 'mid', 'high'] },
      minItems: 3,
      uniqueItems: true,
    },
    empty: { type: 'array', items: { type: 'number' }, maxItems: 0 },
    point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }], items: false },
    created: { type: 'string', format: 'date-time' },
    email: { type: 'string', format: 'email' },
    homepage: { type: 'string', format: 'uri' },
    id: { type: 'string', format: 'uuid' },
    owner: { $ref: '#/$defs/person' },
    reviewers: { type: 'array', items: { $ref: '#/definitions/person' }, minItems: 1 },
    contact: { anyOf: [{ type: 'string', format: 'email' }, { type: 'null' }] },
    shape: {
      oneOf: [
        {
          type: 'object',
          properties: { radius: { type: 'number', minimum: 1 } },
          required: ['radius'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { side: { type: 'number' } },
          required: ['side'],
          additionalProperties: false,
        },
      ],
    },
    audit: {
      allOf: [
        { type: 'object', properties: { by: { type: 'string' } }, required: ['by'] },
        { properties: { at: { type: 'string', format: 'date-time' } }, required: ['at'] },
      ],
    },
    priority: { type: 'integer', default: 2 },
    tree: { $ref: '#/$defs/node' },
    note: { type: 'string', description: 'optional: not in required' },
  },
  required: [
    'title',
    'code',
    'slug',
    'status',
    'kind',
    'count',
    'ratio',
    'below',
    'step',
    'flag',
    'nothing',
    'nickname',
    'tags',
    'levels',
    'empty',
    'point',
    'created',
    'email',
    'homepage',
    'id',
    'owner',
    'reviewers',
    'contact',
    'shape',
    'audit',
    'priority',
    'tree',
  ],
  additionalProperties: false,
  $defs: {
    person,
    node: {
      type: 'object',
      properties: {
        label: { type: 'string' },
        children: { type: 'array', items: { $ref: '#/$defs/node' } },
      },
      required: ['label', 'children'],
      additionalProperties: false,
    },
  },
  definitions: { person },
};

const jsonSchemaFormat = {
  type: 'json_schema',
  json_schema: { name: 'report', schema: reportSchema, strict: true },
};

function content(json: ChatCompletion): string {
  return json.choices[0]?.message.content ?? '';
}

describe('structured output: response_format and structured_outputs', () => {
  it('the test checker itself rejects what breaks the schema', () => {
    expect(schemaErrors({}, reportSchema).length).toBeGreaterThan(20);
    expect(schemaErrors({ name: 'x', age: 17 }, person)).toEqual(['$.age: is below 18']);
  });

  it('json_schema: the content is JSON valid for a schema using every supported keyword, optional properties included', async () => {
    const { status, json } = await chat({
      messages: ask(prompt),
      response_format: jsonSchemaFormat,
    });
    expect(status).toBe(200);
    expect(json.choices[0]).toMatchObject({ finish_reason: 'stop', message: { tool_calls: [] } });
    const value = JSON.parse(content(json)) as Record<string, unknown>;
    expect(schemaErrors(value, reportSchema)).toEqual([]);
    expect(value).toHaveProperty('note');
    // Strings come from the prompt's words.
    expect(String(value.title)).toContain('lighthouse');
  });

  it('json_schema is deterministic: the same request gives the same bytes', async () => {
    const first = await chat({ messages: ask(prompt), response_format: jsonSchemaFormat });
    const second = await chat({ messages: ask(prompt), response_format: jsonSchemaFormat });
    expect(content(second.json)).toBe(content(first.json));
  });

  it('streams the same JSON as the non-streamed answer, split into content deltas', async () => {
    const nonStreamed = await chat({ messages: ask(prompt), response_format: jsonSchemaFormat });
    const response = await fetch(`${server.url()}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({
        model,
        messages: ask(prompt),
        response_format: jsonSchemaFormat,
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    const read = await readSse(response);
    const chunks = read.payloads as ChatChunk[];
    const deltas = chunks
      .map((chunk) => chunk.choices[0]?.delta.content ?? '')
      .filter((delta) => delta !== '');
    expect(deltas.length).toBeGreaterThan(20);
    expect(deltas.join('')).toBe(content(nonStreamed.json));
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks.at(-1)?.usage?.completion_tokens).toBe(nonStreamed.json.usage.completion_tokens);
  });

  it('json_object: the content is a JSON object built from the prompt, the same each time', async () => {
    const first = await chat({
      messages: ask('List facts about Lisbon trams'),
      response_format: { type: 'json_object' },
    });
    const value: unknown = JSON.parse(content(first.json));
    expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
    expect(content(first.json)).toContain('Lisbon');
    const second = await chat({
      messages: ask('List facts about Lisbon trams'),
      response_format: { type: 'json_object' },
    });
    expect(content(second.json)).toBe(content(first.json));
  });

  it("accepts vLLM's structured_outputs.json, as a schema or as its JSON text", async () => {
    for (const json of [person, JSON.stringify(person)]) {
      const { status, json: body } = await chat({
        messages: ask('a person please'),
        structured_outputs: { json },
      });
      expect(status).toBe(200);
      expect(schemaErrors(JSON.parse(content(body)), person)).toEqual([]);
    }
  });

  it('response_format text gives prose; an unknown type is 400 naming the field', async () => {
    const text = await chat({ messages: ask('plain please'), response_format: { type: 'text' } });
    expect(content(text.json)).toContain('[infergate local backend]');
    const bad = await chat<VllmErrorBody>({
      messages: ask('x'),
      response_format: { type: 'yaml' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.param).toBe('body.response_format.type');
  });

  it('after a tool result, a json_schema answer is still valid JSON and built from the result', async () => {
    const messages = [
      { role: 'user', content: 'Who owns the boat?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'lookup_owner', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Maelle Kerouac' },
    ];
    const { json } = await chat({
      messages,
      response_format: { type: 'json_schema', json_schema: { name: 'person', schema: person } },
    });
    const value = JSON.parse(content(json)) as { name: string };
    expect(schemaErrors(value, person)).toEqual([]);
    expect(value.name).toContain('Maelle');
  });
});
