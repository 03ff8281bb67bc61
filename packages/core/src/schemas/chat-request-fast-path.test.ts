import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../errors/gateway-error.js';
import { chatCompletionsRequestSchema } from './chat-completions-request-schema.js';
import { parseChatCompletionsRequest, plainChatRequest } from './chat-request-fast-path.js';
import { maxMessages } from './item-bounds.js';

// The fast path against the schema it stands in for: whatever it accepts, the schema accepts with
// the same output; whatever it passes on, the schema decides alone.

const anyValue = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1, 1.5, 2, 2.5, 0.5, 1e300, -0, '', 'x', [], {}),
  fc.double(),
  fc.integer(),
  fc.string({ maxLength: 5 }),
);

const role = fc.oneof(
  fc.constantFrom('system', 'developer', 'user', 'assistant', 'tool', 'other'),
  fc.string({ maxLength: 4 }),
);
const content = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constant([{ type: 'text', text: 'hi' }]),
  fc.constant([{ type: 'refusal', refusal: 'no' }]),
  anyValue,
);
const message = fc.oneof(
  fc.record({ role, content }),
  fc.record({ role, content }, { requiredKeys: [] }),
  fc.record({ role, content, name: fc.oneof(fc.string({ maxLength: 3 }), anyValue) }),
  fc.record({ role, content, tool_calls: fc.constantFrom([], null) }),
  anyValue,
);

// Each field with values in and out of its range, and fields the fast path leaves to the schema.
const fields = {
  model: fc.oneof(fc.string({ maxLength: 6 }), anyValue),
  messages: fc.oneof(fc.array(message, { maxLength: 4 }), anyValue),
  stream: fc.oneof(fc.boolean(), anyValue),
  max_tokens: fc.oneof(fc.integer({ min: -2, max: 4096 }), anyValue),
  max_completion_tokens: fc.oneof(fc.integer({ min: -2, max: 4096 }), anyValue),
  temperature: fc.oneof(fc.double({ min: -1, max: 3, noNaN: true }), anyValue),
  top_p: fc.oneof(fc.double({ min: -0.5, max: 1.5, noNaN: true }), anyValue),
  stream_options: fc.constantFrom({ include_usage: true }, {}, null),
  min_tokens: fc.integer({ min: 0, max: 300 }),
  prompt_logprobs: fc.integer({ min: 0, max: 2 }),
  n: anyValue,
  tools: fc.constantFrom([], null),
  chat_template_kwargs: fc.constant({ enable_thinking: true }),
  constructor: anyValue,
};
const body = fc.record(fields, { requiredKeys: [] });

// Bodies as most clients send them, with values at and just past each bound, so that most cases
// reach the fast path's checks and many of those sit where a wrong bound would show.
function near(...bounds: number[]) {
  const values = bounds.flatMap((bound) => [bound, bound - 1e-9, bound + 1e-9]);
  return fc.oneof(fc.constantFrom(...values), fc.double({ min: -1, max: 3, noNaN: true }));
}
const roles = fc.constantFrom('system', 'developer', 'user', 'assistant', 'tool');
const textMessage = fc.record({ role: roles, content: fc.string() });
// A text message with one more field, valid or not.
const messageWithMore = fc
  .tuple(
    textMessage,
    fc.constantFrom('name', 'tool_call_id', 'tool_calls', 'refusal', 'content'),
    fc.oneof(anyValue, fc.constantFrom('ann', 'call_1', [{ type: 'text', text: 'hi' }])),
  )
  .map(([message, key, value]) => ({ ...message, [key]: value }));
// Another top-level field, valid or not.
const moreField = fc
  .tuple(
    fc.constantFrom('seed', 'n', 'user', 'logprobs', 'stop', 'min_tokens', 'stream_options'),
    fc.constantFrom(null, true, 1, 'x', {}, [], 2.5),
  )
  .map(([key, value]) => ({ [key]: value }));

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const commonBody = fc
  .record({
    model: fc.string({ maxLength: 6 }),
    messages: fc.array(
      fc.oneof(
        {
          weight: 8,
          arbitrary: textMessage,
        },
        { weight: 1, arbitrary: messageWithMore },
      ),
      { minLength: 0, maxLength: 4 },
    ),
    stream: optional(fc.boolean()),
    bound: optional(fc.constantFrom('max_tokens', 'max_completion_tokens', 'both')),
    tokens: fc.oneof(fc.integer({ min: 0, max: 4096 }), fc.constantFrom(2 ** 53, 1.5)),
    temperature: optional(near(0, 2)),
    top_p: optional(near(0, 1)),
    more: fc.oneof({ weight: 2, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: moreField }),
  })
  .map(({ bound, tokens, more, ...rest }) => ({
    ...rest,
    ...more,
    ...(bound === 'max_tokens' || bound === 'both' ? { max_tokens: tokens } : {}),
    ...(bound === 'max_completion_tokens' || bound === 'both'
      ? { max_completion_tokens: tokens }
      : {}),
  }));

/** Whether the fast path took the value; when it did, the schema must agree. */
function agreesWithSchema(value: unknown): boolean {
  const fast = plainChatRequest(value);
  if (fast === undefined) return false;
  const reference = chatCompletionsRequestSchema.safeParse(value);
  expect(reference.success, JSON.stringify(value)).toBe(true);
  expect(fast).toStrictEqual(reference.data);
  return true;
}

describe('the chat request fast path', () => {
  it('accepts only what the schema accepts, with the schema output', () => {
    let taken = 0;
    const runs = 20_000;
    fc.assert(
      // Through JSON, as a body reaches the fast path: plain objects, no undefined, no NaN.
      fc.property(fc.oneof(body, commonBody), (generated) => {
        if (agreesWithSchema(JSON.parse(JSON.stringify(generated)))) taken += 1;
      }),
      { numRuns: runs },
    );
    // Enough cases reach the fast path's acceptance for the comparison to mean something.
    expect(taken).toBeGreaterThan(runs / 100);
  });

  it('takes the body most clients send', () => {
    const request = {
      model: 'qwen3-32b',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      max_tokens: 128,
      temperature: 0.7,
      stream: true,
    };
    expect(plainChatRequest(request)).toBe(request);
    agreesWithSchema(request);
  });

  it('passes on what the schema must decide', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };
    const passedOn = [
      { ...base, temperature: null },
      { ...base, max_tokens: 1, max_completion_tokens: 1 },
      { ...base, max_tokens: 2 ** 53 },
      { ...base, top_p: 0 },
      { ...base, seed: 1 },
      { ...base, messages: [] },
      { ...base, messages: Array.from({ length: maxMessages + 1 }, () => base.messages[0]) },
      { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] },
      { ...base, messages: [{ role: 'user', content: 'hi', name: 'ann' }] },
      { ...base, messages: [{ role: 'tool', content: 'hi' }] },
      { model: 'm' },
      { messages: base.messages },
      Object.assign(Object.create(null) as object, base),
      [base],
    ];
    for (const value of passedOn)
      expect(plainChatRequest(value), JSON.stringify(value)).toBe(undefined);
  });

  it('answers a body it passes on with the schema error naming the field', () => {
    const error = (text: string | undefined): unknown => {
      try {
        return parseChatCompletionsRequest(text);
      } catch (thrown) {
        return thrown;
      }
    };
    const tooHot = error(
      '{"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":3}',
    );
    expect(tooHot).toBeInstanceOf(GatewayError);
    expect((tooHot as GatewayError).param).toBe('temperature');
    expect((error('{"model":"m"}') as GatewayError).param).toBe('messages');
    expect((error(undefined) as GatewayError).code).toBe('invalid_json');
    expect(error('{"model":"m","messages":[{"role":"user","content":"hi"}]}')).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
  });
});
