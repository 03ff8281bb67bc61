import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../errors/upstream-error.js';
import { countingIds } from '../handlers/test-ports.js';
import {
  chunkEvent,
  doneData,
  scriptedEvents,
  scriptedReads,
  usageEvent,
  vllmStreamEvents,
} from '../handlers/text-test-ports.js';
import type { SseEvent } from '../sse/sse-event.js';
import type { TakeableIterator } from '../sse/takeable-iterator.js';
import type { ResponsesEcho } from './responses-object.js';
import { matchPlainContentChunk } from './plain-content-chunk.js';
import { chatStreamToResponsesEvents } from './responses-stream-transform.js';

type Payload = Record<string, unknown> & { type: string; sequence_number: number };
interface Item {
  id: string;
  type: string;
  content: Array<{ type: string; text: string }>;
  arguments?: string;
  name?: string;
  call_id?: string;
  status?: string;
}

const echo: ResponsesEcho = {
  instructions: null,
  max_output_tokens: null,
  max_tool_calls: null,
  metadata: null,
  parallel_tool_calls: true,
  reasoning: null,
  service_tier: 'auto',
  temperature: null,
  text: null,
  tool_choice: 'auto',
  tools: [],
  top_logprobs: null,
  top_p: null,
  truncation: 'disabled',
  user: null,
};
const terminal = new Set(['response.completed', 'response.incomplete', 'response.failed']);
const known = new Set([
  'response.created',
  'response.in_progress',
  'response.output_item.added',
  'response.output_item.done',
  'response.content_part.added',
  'response.content_part.done',
  'response.output_text.delta',
  'response.output_text.done',
  'response.reasoning_text.delta',
  'response.reasoning_text.done',
  'response.function_call_arguments.delta',
  'response.function_call_arguments.done',
  ...terminal,
]);

/** The checks openai-node's stream accumulator makes, applied to our events. */
function accumulate(events: SseEvent[]): { payloads: Payload[]; output: Item[] } {
  const payloads = events.map((event) => {
    const payload = JSON.parse(event.data) as Payload;
    expect(event.event).toBe(payload.type);
    expect(known.has(payload.type)).toBe(true);
    return payload;
  });
  expect(payloads[0]?.type).toBe('response.created');
  payloads.forEach((payload, index) => expect(payload.sequence_number).toBe(index));
  expect(payloads.filter((payload) => terminal.has(payload.type))).toHaveLength(1);
  expect(terminal.has(payloads.at(-1)?.type ?? '')).toBe(true);
  const output: Item[] = [];
  for (const payload of payloads) {
    const at = output[payload.output_index as number];
    if ('item_id' in payload) expect(payload.item_id).toBe(at?.id);
    switch (payload.type) {
      case 'response.output_item.added':
        expect(payload.output_index).toBe(output.length);
        output.push(structuredClone(payload.item) as Item);
        break;
      case 'response.content_part.added':
        expect(payload.content_index).toBe(at?.content.length);
        at?.content.push(structuredClone(payload.part) as Item['content'][number]);
        break;
      case 'response.output_text.delta':
      case 'response.reasoning_text.delta': {
        expect(at?.type).toBe(
          payload.type === 'response.output_text.delta' ? 'message' : 'reasoning',
        );
        const part = at?.content[payload.content_index as number];
        expect(part?.type).toBe(
          payload.type === 'response.output_text.delta' ? 'output_text' : 'reasoning_text',
        );
        if (part) part.text += payload.delta as string;
        if (payload.type === 'response.output_text.delta') expect(payload.logprobs).toEqual([]);
        break;
      }
      case 'response.output_text.done':
      case 'response.reasoning_text.done':
        expect(payload.text).toBe(at?.content[payload.content_index as number]?.text);
        break;
      case 'response.function_call_arguments.delta':
        expect(at?.type).toBe('function_call');
        if (at) at.arguments = (at.arguments ?? '') + (payload.delta as string);
        break;
      case 'response.function_call_arguments.done':
        expect(at?.type).toBe('function_call');
        expect(payload.arguments).toBe(at?.arguments);
        break;
      case 'response.output_item.done':
        expect((payload.item as Item).id).toBe(at?.id);
        if (at?.type === 'function_call')
          expect((payload.item as Item).arguments).toBe(at.arguments);
        output[payload.output_index as number] = structuredClone(payload.item) as Item;
        break;
      default:
        break;
    }
  }
  return { payloads, output };
}

async function run(
  upstream: AsyncIterable<SseEvent>,
  clearThinking = false,
  meta = {},
  overrides: { echo?: ResponsesEcho; logprobs?: boolean } = {},
) {
  const events: SseEvent[] = [];
  const options = {
    model: 'beta53-flash-agent',
    clearThinking,
    ids: countingIds(),
    createdAt: 1_767_225_600,
    echo: overrides.echo ?? echo,
    logprobs: overrides.logprobs ?? false,
    meta,
  };
  for await (const event of chatStreamToResponsesEvents(upstream, options)) events.push(event);
  return accumulate(events);
}

/** vLLM's tool-call deltas: id, type and name on the first fragment of each call. */
function toolCallEvents(
  calls: ReadonlyArray<{ index: number; id: string; name: string; pieces: readonly string[] }>,
): SseEvent[] {
  const events: SseEvent[] = [];
  for (const call of calls) {
    call.pieces.forEach((piece, position) => {
      const fn = position === 0 ? { name: call.name, arguments: piece } : { arguments: piece };
      events.push(
        chunkEvent({
          tool_calls: [
            position === 0
              ? { index: call.index, id: call.id, type: 'function', function: fn }
              : { index: call.index, function: fn },
          ],
        }),
      );
    });
  }
  return events;
}

describe('chatStreamToResponsesEvents', () => {
  it('emits the events of a text answer in the order the accumulator needs, ending with response.completed', async () => {
    const meta = {};
    const { payloads, output } = await run(
      scriptedEvents(vllmStreamEvents(['Hel', 'lo!'])),
      false,
      meta,
    );
    expect(payloads.map((payload) => payload.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(output[0]?.content[0]?.text).toBe('Hello!');
    const final = payloads.at(-1)?.response as Record<string, unknown>;
    expect(final).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'beta53-flash-agent',
      output_text: 'Hello!',
      usage: { input_tokens: 11, output_tokens: 2, total_tokens: 13 },
    });
    expect((payloads[0]?.response as Record<string, unknown>).status).toBe('in_progress');
    expect(meta).toEqual({ inputTokens: 11, outputTokens: 2 });
  });

  it('reads plain content deltas with escapes and field-like text as their values', async () => {
    const pieces = ['"model":"x"', ' a\\b\n', 'é😀'];
    const { output } = await run(scriptedEvents(vllmStreamEvents(pieces)));
    expect(output[0]?.content[0]?.text).toBe(pieces.join(''));
  });

  it('puts exposed reasoning first as a reasoning item, closed before the message opens', async () => {
    const { payloads, output } = await run(
      scriptedEvents(vllmStreamEvents(['Answer.'], { reasoning: ['Think', 'ing.'] })),
    );
    expect(output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(output[0]?.content[0]).toEqual({ type: 'reasoning_text', text: 'Thinking.' });
    const types = payloads.map((payload) => payload.type);
    expect(types.indexOf('response.reasoning_text.done')).toBeLessThan(
      types.lastIndexOf('response.output_item.added'),
    );
    const final = payloads.at(-1)?.response as { output: Item[]; output_text: string };
    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(final.output_text).toBe('Answer.');
  });

  it('leaves reasoning out for models that hide thinking', async () => {
    const { payloads, output } = await run(
      scriptedEvents(vllmStreamEvents(['Answer.'], { reasoning: ['secret'] })),
      true,
    );
    expect(output.map((item) => item.type)).toEqual(['message']);
    expect(JSON.stringify(payloads)).not.toContain('secret');
  });

  it('ends with response.incomplete (reason max_output_tokens) when the token limit stopped it', async () => {
    const { payloads } = await run(
      scriptedEvents(vllmStreamEvents(['cut'], { finishReason: 'length' })),
    );
    expect(payloads.at(-1)).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
  });

  it('still has one (empty) message when the model said nothing', async () => {
    const { payloads } = await run(scriptedEvents(vllmStreamEvents([])));
    expect(payloads.at(-1)).toMatchObject({
      type: 'response.completed',
      response: { output_text: '', output: [{ type: 'message' }] },
    });
  });

  it('turns streamed tool calls into function_call items with argument deltas, done events and the final object', async () => {
    const upstream = [
      chunkEvent({ role: 'assistant', content: '' }),
      ...toolCallEvents([
        { index: 0, id: 'chatcmpl-tool-a', name: 'get_weather', pieces: ['{"city":', ' "Paris"}'] },
        { index: 1, id: 'chatcmpl-tool-b', name: 'get_time', pieces: ['{}'] },
      ]),
      chunkEvent({}, 'tool_calls'),
      usageEvent(11, 9),
      doneData,
    ];
    const { payloads, output } = await run(scriptedEvents(upstream));
    expect(payloads.map((payload) => payload.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(output).toEqual([
      {
        id: expect.stringMatching(/^fc_\d+$/),
        type: 'function_call',
        status: 'completed',
        arguments: '{"city": "Paris"}',
        call_id: 'chatcmpl-tool-a',
        name: 'get_weather',
      },
      {
        id: expect.stringMatching(/^fc_\d+$/),
        type: 'function_call',
        status: 'completed',
        arguments: '{}',
        call_id: 'chatcmpl-tool-b',
        name: 'get_time',
      },
    ]);
    const final = payloads.at(-1)?.response as { output: Item[]; output_text: string };
    expect(final.output).toEqual(output);
    expect(final.output_text).toBe('');
  });

  it('closes the message said before a tool call first, and leaves out calls past max_tool_calls', async () => {
    const upstream = [
      chunkEvent({ role: 'assistant', content: '' }),
      chunkEvent({ content: 'Checking.' }),
      ...toolCallEvents([
        { index: 0, id: 'a', name: 'f', pieces: ['{}'] },
        { index: 1, id: 'b', name: 'g', pieces: ['{', '}'] },
      ]),
      chunkEvent({}, 'tool_calls'),
      doneData,
    ];
    const { output } = await run(
      scriptedEvents(upstream),
      false,
      {},
      { echo: { ...echo, max_tool_calls: 1 } },
    );
    expect(output.map((item) => [item.type, item.status])).toEqual([
      ['message', 'completed'],
      ['function_call', 'completed'],
    ]);
  });

  it('counts reasoning tokens from the reasoning deltas when the upstream usage has no details, hidden thinking too', async () => {
    for (const clearThinking of [false, true]) {
      const { payloads } = await run(
        scriptedEvents(vllmStreamEvents(['Answer.'], { reasoning: ['a', 'b', 'c'] })),
        clearThinking,
      );
      expect(payloads.at(-1)).toMatchObject({
        response: { usage: { output_tokens: 1, output_tokens_details: { reasoning_tokens: 1 } } },
      });
    }
    const detailed = [
      chunkEvent({ reasoning: 'x' }),
      chunkEvent({ reasoning: 'y' }),
      chunkEvent({ content: 'z' }),
      chunkEvent({}, 'stop'),
      {
        data: JSON.stringify({
          id: 'c',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'm',
          choices: [],
          usage: {
            prompt_tokens: 3,
            completion_tokens: 9,
            total_tokens: 12,
            completion_tokens_details: { reasoning_tokens: 7 },
          },
        }),
      },
      doneData,
    ];
    const { payloads } = await run(scriptedEvents(detailed));
    expect(payloads.at(-1)).toMatchObject({
      response: { usage: { output_tokens: 9, output_tokens_details: { reasoning_tokens: 7 } } },
    });
    const counted = [
      chunkEvent({ reasoning: 'x' }),
      chunkEvent({ reasoning: 'y' }),
      chunkEvent({ content: 'z' }),
      chunkEvent({}, 'stop'),
      usageEvent(3, 5),
      doneData,
    ];
    const { payloads: countedPayloads } = await run(scriptedEvents(counted));
    expect(countedPayloads.at(-1)).toMatchObject({
      response: { usage: { output_tokens: 5, output_tokens_details: { reasoning_tokens: 2 } } },
    });
  });

  it("carries the chunks' log-probabilities on the text deltas and the final part when asked for", async () => {
    const logprob = (token: string) => ({
      token,
      logprob: -0.5,
      bytes: [...new TextEncoder().encode(token)],
      top_logprobs: [],
    });
    const withLogprobs = (content: string) => ({
      data: JSON.stringify({
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [
          {
            index: 0,
            delta: { content },
            logprobs: { content: [logprob(content)] },
            finish_reason: null,
          },
        ],
      }),
    });
    const upstream = [
      withLogprobs('Hi'),
      withLogprobs('!'),
      chunkEvent({}, 'stop'),
      usageEvent(1, 2),
      doneData,
    ];
    const events: SseEvent[] = [];
    for await (const event of chatStreamToResponsesEvents(scriptedEvents(upstream), {
      model: 'm',
      clearThinking: false,
      ids: countingIds(),
      createdAt: 1,
      echo,
      logprobs: true,
      meta: {},
    }))
      events.push(event);
    const payloads = events.map((event) => JSON.parse(event.data) as Payload);
    expect(
      payloads
        .filter((payload) => payload.type === 'response.output_text.delta')
        .map((payload) => payload.logprobs),
    ).toEqual([[logprob('Hi')], [logprob('!')]]);
    expect(payloads.at(-1)).toMatchObject({
      response: {
        output: [{ content: [{ text: 'Hi!', logprobs: [logprob('Hi'), logprob('!')] }] }],
      },
    });
  });

  it('ends with response.failed when the upstream ends without [DONE]', async () => {
    const { payloads } = await run(
      scriptedEvents([
        chunkEvent({ role: 'assistant', content: '' }),
        chunkEvent({ content: 'par' }),
      ]),
    );
    expect(payloads.at(-1)).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { code: 'upstream_error' } },
    });
  });

  it('ends with response.failed (code upstream_timeout) when the upstream goes idle', async () => {
    const upstream = scriptedEvents(
      [chunkEvent({ content: 'a' })],
      new UpstreamError({ phase: 'body', kind: 'timeout', message: 'no event for 60000 ms' }),
    );
    const { payloads } = await run(upstream);
    expect(payloads.at(-1)).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { code: 'upstream_timeout' } },
    });
  });

  it('ends with response.failed on an in-stream upstream error, and stops reading the upstream', async () => {
    const upstream = scriptedEvents([
      chunkEvent({ content: 'a' }),
      {
        data: '{"error":{"message":"engine failure","type":"InternalServerError","param":null,"code":500}}',
      },
      { data: '[DONE]' },
    ]);
    const { payloads } = await run(upstream);
    expect(payloads.at(-1)).toMatchObject({
      type: 'response.failed',
      response: { error: { code: 'upstream_error', message: 'engine failure' } },
    });
    expect(upstream.returned).toBe(true);
  });

  it('writes a plain content delta (read without JSON.parse) exactly as the parsed path writes the same delta', async () => {
    const pieces = ['Hel', 'lo, "wörld"', ' \\ tab\t', ' 😀', ''];
    const plain = vllmStreamEvents(pieces);
    // The same chunks with one blank after the opening brace: not vLLM's layout, so parsed and rewritten.
    const parsed = plain.map((event) =>
      event.data.startsWith('{') ? { data: `{ ${event.data.slice(1)}` } : event,
    );
    expect(plain.filter((event) => matchPlainContentChunk(event.data) !== undefined)).toHaveLength(
      pieces.length,
    );
    expect(parsed.filter((event) => matchPlainContentChunk(event.data) !== undefined)).toHaveLength(
      0,
    );
    const texts = async (events: SseEvent[]) => {
      const out: string[] = [];
      const options = {
        model: 'beta53-flash-agent',
        clearThinking: false,
        ids: countingIds(),
        createdAt: 1_767_225_600,
        echo,
        logprobs: false,
        meta: {},
      };
      for await (const event of chatStreamToResponsesEvents(scriptedEvents(events), options))
        out.push(`${event.event ?? ''}|${event.data}`);
      return out;
    };
    const fast = await texts(plain);
    expect(fast.filter((text) => text.startsWith('response.output_text.delta|'))).toHaveLength(4);
    expect(fast).toEqual(await texts(parsed));
  });
});

describe('chatStreamToResponsesEvents over an upstream that hands out ready events (take)', () => {
  const streamOptions = (meta = {}) => ({
    model: 'beta53-flash-agent',
    clearThinking: false,
    ids: countingIds(),
    createdAt: 1_767_225_600,
    echo,
    logprobs: false,
    meta,
  });

  /** Read as the request finaliser does: one awaited next(), then every event take() has ready. */
  async function readTaking(
    stream: TakeableIterator<SseEvent>,
  ): Promise<{ events: SseEvent[]; reads: number }> {
    const events: SseEvent[] = [];
    let reads = 0;
    for (let next = await stream.next(); next.done !== true; next = await stream.next()) {
      reads += 1;
      events.push(next.value);
      for (let ready = stream.take?.(); ready !== undefined; ready = stream.take?.())
        events.push(ready);
    }
    return { events, reads };
  }

  const script = [
    chunkEvent({ role: 'assistant', content: '' }),
    chunkEvent({ reasoning: 'think' }),
    chunkEvent({ content: 'Hel' }),
    chunkEvent({ content: 'lo' }),
    ...toolCallEvents([{ index: 0, id: 'call_1', name: 'lookup', pieces: ['{"q":', '"x"}'] }]),
    chunkEvent({}, 'tool_calls'),
    usageEvent(9, 6),
    doneData,
  ];

  it('gives the events of one upstream read in one pass, the same events as read one at a time', async () => {
    const oneMeta = {};
    const oneByOne: SseEvent[] = [];
    for await (const event of chatStreamToResponsesEvents(
      scriptedEvents(script),
      streamOptions(oneMeta),
    ))
      oneByOne.push(event);
    const takingMeta = {};
    const upstream = scriptedReads([script.slice(0, 3), script.slice(3, 7), script.slice(7)]);
    const taking = await readTaking(
      chatStreamToResponsesEvents(upstream, streamOptions(takingMeta)),
    );
    expect(taking.events).toEqual(oneByOne);
    accumulate(taking.events);
    // response.created and response.in_progress go with the first read, which the port has already.
    expect(taking.reads).toBe(3);
    expect(upstream.waits).toBe(2);
    expect(upstream.returned).toBe(true);
    expect(takingMeta).toEqual(oneMeta);
  });

  it('ends a read that fails after its events with response.failed, once', async () => {
    const upstream = scriptedReads(
      [script.slice(0, 4)],
      new UpstreamError({ phase: 'body', kind: 'reset', message: 'reset' }),
    );
    const { events } = await readTaking(chatStreamToResponsesEvents(upstream, streamOptions()));
    const { payloads } = accumulate(events);
    expect(payloads.at(-1)).toMatchObject({
      type: 'response.failed',
      response: { status: 'failed', error: { code: 'upstream_error' } },
    });
    expect(
      payloads
        .filter((payload) => payload.type === 'response.output_text.delta')
        .map((payload) => payload.delta),
    ).toEqual(['Hel', 'lo']);
  });
});
