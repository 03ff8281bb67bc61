import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ContractClient,
  asRecord,
  chatCompletion,
  readSse,
  startRecordingUpstream,
  upstreamsServingEverything,
  writeJson,
  type RecordingUpstream,
} from '@infergate/testkit';
import { startNodeGateway, type NodeGateway } from './start-node-gateway.js';

/*
 * The exact chat request each /v1/responses feature becomes, as a real upstream on loopback
 * records it, and what the client gets back for the upstream's tool calls. The expected bodies are the
 * chat-completions forms vLLM sends and the completion API's responses forms (7.1-7.3).
 */

type Json = Record<string, unknown>;
const served = (id: string): string => `served-${id}`;
const weatherParameters = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
};
const weatherTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: weatherParameters,
  strict: true,
};
const chatWeatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather of a city.',
    parameters: weatherParameters,
    strict: true,
  },
};

// A vLLM answer with one tool call (content null, finish_reason tool_calls).
function toolCallAnswer(model: string): Json {
  const answer = chatCompletion(model, '') as Json & { choices: Array<Json & { message: Json }> };
  const choice = answer.choices[0] as Json & { message: Json };
  choice.message.content = null;
  choice.message.tool_calls = [
    {
      id: 'chatcmpl-tool-0123',
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city": "Paris"}' },
    },
  ];
  choice.finish_reason = 'tool_calls';
  return answer;
}

// The same call streamed as vLLM streams it: id, type and name on the first fragment only.
function toolCallStream(model: string): string {
  const base = { id: 'chatcmpl-s', object: 'chat.completion.chunk', created: 1_767_225_600, model };
  const chunk = (delta: Json, finish: string | null = null): string =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  return [
    chunk({ role: 'assistant', content: '' }),
    chunk({
      tool_calls: [
        {
          index: 0,
          id: 'chatcmpl-tool-0123',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city": ' },
        },
      ],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
    chunk({}, 'tool_calls'),
    `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 30, completion_tokens: 9, total_tokens: 39 } })}\n\n`,
    'data: [DONE]\n\n',
  ].join('');
}

describe('/v1/responses bridged to a chat upstream: the exact chat request and the answer', () => {
  let upstream: RecordingUpstream;
  let gateway: NodeGateway;
  let client: ContractClient;
  let answerWithToolCall = false;

  beforeAll(async () => {
    upstream = await startRecordingUpstream({
      handlers: {
        'POST /v1/chat/completions': (request, response) => {
          const body = request.body as Json;
          if (!answerWithToolCall)
            return writeJson(response, 200, chatCompletion(String(body.model), 'It is sunny.'));
          if (body.stream !== true)
            return writeJson(response, 200, toolCallAnswer(String(body.model)));
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.end(toolCallStream(String(body.model)));
        },
      },
    });
    gateway = await startNodeGateway({
      upstreams: upstreamsServingEverything(upstream.url, served),
    });
    client = new ContractClient(gateway);
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  beforeEach(() => {
    upstream.clear();
    answerWithToolCall = false;
  });

  const sentBody = (): Json => {
    const calls = upstream.requestsTo('/v1/chat/completions');
    expect(calls).toHaveLength(1);
    return calls[0]?.body as Json;
  };

  it('tools, tool_choice and parallel_tool_calls become the chat forms; max_tool_calls, store, metadata and include are not sent', async () => {
    const reply = await client.postJson('/v1/responses', {
      model: 'general-std',
      input: 'Weather in Paris?',
      tools: [weatherTool],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
      max_tool_calls: 1,
      store: false,
      metadata: { session: 's-1' },
      include: ['reasoning.encrypted_content'],
    });
    expect(reply.status, reply.text).toBe(200);
    expect(sentBody()).toEqual({
      model: 'served-alpha36-35b-a3b-instruct',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [chatWeatherTool],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
    });
    expect(asRecord(reply.json)).toMatchObject({
      store: false,
      metadata: { session: 's-1' },
      max_tool_calls: 1,
      parallel_tool_calls: false,
      tool_choice: { type: 'function', name: 'get_weather' },
      tools: [weatherTool],
    });
  });

  it.each([
    ['auto', 'auto'],
    ['none', 'none'],
    ['required', 'required'],
  ])('tool_choice %s is sent as %s', async (choice, sent) => {
    expect(
      (
        await client.postJson('/v1/responses', {
          model: 'general-std',
          input: 'x',
          tools: [weatherTool],
          tool_choice: choice,
        })
      ).status,
    ).toBe(200);
    expect(sentBody().tool_choice).toBe(sent);
  });

  it('text.format becomes response_format (json_schema keeps name, schema and strict; json_object; text sends none); verbosity is not sent', async () => {
    const schema = {
      type: 'object',
      properties: { answer: { type: 'string' } },
      required: ['answer'],
      additionalProperties: false,
    };
    const formats = [
      [
        { type: 'json_schema', name: 'reply', schema, strict: true },
        { type: 'json_schema', json_schema: { name: 'reply', schema, strict: true } },
      ],
      [{ type: 'json_object' }, { type: 'json_object' }],
      [{ type: 'text' }, undefined],
    ] as const;
    for (const [format, responseFormat] of formats) {
      upstream.clear();
      const reply = await client.postJson('/v1/responses', {
        model: 'general-std',
        input: 'x',
        text: { format, verbosity: 'low' },
      });
      expect(reply.status, reply.text).toBe(200);
      expect(sentBody().response_format).toEqual(responseFormat);
      expect(sentBody()).not.toHaveProperty('verbosity');
      expect(asRecord(reply.json).text).toEqual({ format, verbosity: 'low' });
    }
  });

  it('replayed items become chat messages: instructions and developer as system, assistant tool calls, tool results; reasoning items are not sent', async () => {
    const reply = await client.postJson('/v1/responses', {
      model: 'general-std',
      instructions: 'Be brief.',
      store: false,
      input: [
        { role: 'developer', content: 'Answer in English.' },
        {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'Weather in Paris?' }],
        },
        {
          id: 'rs_1',
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: 'Use the tool.' }],
          encrypted_content: null,
        },
        {
          id: 'fc_1',
          type: 'function_call',
          status: 'completed',
          call_id: 'call_1',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
        },
        { type: 'function_call_output', call_id: 'call_1', output: '{"sky":"sunny"}' },
        {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          status: 'completed',
          phase: null,
          content: [{ type: 'output_text', text: 'It is sunny.', annotations: [], logprobs: null }],
        },
        { role: 'user', content: 'And tomorrow?' },
      ],
    });
    expect(reply.status, reply.text).toBe(200);
    expect(sentBody().messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: 'Answer in English.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      {
        role: 'assistant',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"sky":"sunny"}' },
      { role: 'assistant', content: [{ type: 'text', text: 'It is sunny.' }] },
      { role: 'user', content: 'And tomorrow?' },
    ]);
    expect(JSON.stringify(sentBody())).not.toContain('Use the tool.');
  });

  it('reasoning.effort on each beta53 variant becomes chat_template_kwargs; elsewhere it is ignored and named in the header', async () => {
    const cases = [
      [
        'beta53-flash-chat',
        'high',
        { enable_thinking: true, clear_thinking: true, reasoning_effort: 'high' },
      ],
      [
        'beta53-flash-chat-low',
        'low',
        { enable_thinking: true, clear_thinking: true, reasoning_effort: 'low' },
      ],
      [
        'beta53-flash-agent',
        'max',
        { enable_thinking: true, clear_thinking: false, reasoning_effort: 'max' },
      ],
      [
        'beta53-flash-agent-low',
        undefined,
        { enable_thinking: true, clear_thinking: false, reasoning_effort: 'low' },
      ],
    ] as const;
    for (const [model, effort, kwargs] of cases) {
      upstream.clear();
      const reply = await client.postJson('/v1/responses', {
        model,
        input: 'x',
        reasoning: { effort, summary: 'auto' },
      });
      expect(reply.status, reply.text).toBe(200);
      expect(sentBody().chat_template_kwargs).toEqual(kwargs);
      expect(sentBody()).not.toHaveProperty('reasoning_effort');
    }
    const locked = await client.postJson('/v1/responses', {
      model: 'beta53-flash-chat-low',
      input: 'x',
      reasoning: { effort: 'high' },
    });
    expect(locked.status).toBe(400);
    expect(asRecord(asRecord(locked.json).error).param).toBe('reasoning.effort');
    upstream.clear();
    const ignored = await client.postJson('/v1/responses', {
      model: 'general-std',
      input: 'x',
      reasoning: { effort: 'medium' },
    });
    expect(ignored.status).toBe(200);
    expect(ignored.headers.get('x-infergate-ignored-params')).toBe('reasoning.effort');
    expect(sentBody()).not.toHaveProperty('chat_template_kwargs');
  });

  it('an upstream tool call comes back as a function_call item, non-streamed and streamed', async () => {
    answerWithToolCall = true;
    const reply = await client.postJson('/v1/responses', {
      model: 'general-std',
      input: 'Weather in Paris?',
      tools: [weatherTool],
    });
    expect(reply.status, reply.text).toBe(200);
    const body = asRecord(reply.json);
    expect(body.output).toEqual([
      {
        id: expect.stringMatching(/^fc_\d+$/),
        type: 'function_call',
        status: 'completed',
        arguments: '{"city": "Paris"}',
        call_id: 'chatcmpl-tool-0123',
        name: 'get_weather',
      },
    ]);
    expect(body.output_text).toBe('');

    const streamed = await client.post('/v1/responses', {
      model: 'general-std',
      input: 'Weather in Paris?',
      tools: [weatherTool],
      stream: true,
    });
    expect(streamed.status).toBe(200);
    const payloads = (await readSse(streamed)).events.map((event) =>
      asRecord(JSON.parse(event.data)),
    );
    payloads.forEach((payload, index) => expect(payload.sequence_number).toBe(index));
    expect(payloads.map((payload) => payload.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(payloads[5]).toMatchObject({ name: 'get_weather', arguments: '{"city": "Paris"}' });
    expect(asRecord(payloads.at(-1)?.response).output).toEqual([
      {
        id: expect.stringMatching(/^fc_\d+$/),
        type: 'function_call',
        status: 'completed',
        arguments: '{"city": "Paris"}',
        call_id: 'chatcmpl-tool-0123',
        name: 'get_weather',
      },
    ]);
  });

  it('a chat request replaying our own answer message is accepted and sent without the fields we answered', async () => {
    const first = await client.postJson('/v1/chat/completions', {
      model: 'general-std',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    const answered = asRecord(asRecord((asRecord(first.json).choices as unknown[])[0]).message);
    upstream.clear();
    const second = await client.postJson('/v1/chat/completions', {
      model: 'general-std',
      messages: [{ role: 'user', content: 'Hi' }, answered, { role: 'user', content: 'More.' }],
      tools: [],
    });
    expect(second.status, second.text).toBe(200);
    expect(sentBody()).toEqual({
      model: 'served-alpha36-35b-a3b-instruct',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'It is sunny.' },
        { role: 'user', content: 'More.' },
      ],
    });
  });
});
