import { describe, expect, it } from 'vitest';
import { fastUpstreamChatCompletion } from './chat-upstream-completion-fast-path.js';
import { upstreamChatCompletionSchema } from '../../schemas/upstream-chat-completion-schema.js';

type Body = Record<string, unknown>;

const absent = Symbol('absent');

// What servers write in each field the schema reads (vLLM old and new, TGI, llama.cpp, Ollama, SGLang),
// and what a broken one might: each list mixes values the schema takes with values it refuses.
const counts = [absent, null, 0, 7, 1.5, -1, 2 ** 53, '7', true];
const strings = [absent, null, '', 'Hi.', 0, false, ['x'], {}];
const palette: Record<string, unknown[]> = {
  created: [absent, null, 0, 1_767_225_600, 1_767_225_600.75, -1, '1767225600', Number.MAX_VALUE],
  system_fingerprint: [absent, null, 'fp_ollama', 3, {}, ['x']],
  usage: [absent, null, 'usage', [], {}],
  'usage.prompt_tokens': counts,
  'usage.completion_tokens': counts,
  'usage.total_tokens': counts,
  'usage.prompt_tokens_details': [
    absent,
    null,
    {},
    { cached_tokens: 3 },
    { cached_tokens: null },
    { cached_tokens: -3 },
    4,
    [],
  ],
  'usage.completion_tokens_details': [
    absent,
    null,
    {},
    { reasoning_tokens: 2 },
    { reasoning_tokens: 'x' },
    'x',
  ],
  choices: [[], null, 'x', {}],
  'choice.index': counts,
  'choice.finish_reason': [absent, null, 'stop', 'length', 1],
  'choice.stop_reason': [absent, null, 151_645, '</s>', -1, 1.5, true, {}],
  'choice.logprobs': [absent, null, { content: [] }, 'anything'],
  'choice.message': [absent, null, 'x', []],
  'message.content': strings,
  'message.reasoning': strings,
  'message.reasoning_content': strings,
  'message.tool_calls': [
    absent,
    null,
    [],
    [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    {},
    'x',
  ],
};

function set(target: Body, key: string, value: unknown): void {
  if (value === absent) delete target[key];
  else target[key] = structuredClone(value);
}

/** A vLLM-like answer with each field's value chosen by `pick` (`absent` for the whole-object paths: built here). */
function body(pick: (path: string) => unknown): Body {
  const message: Body = { role: 'assistant', refusal: null };
  for (const key of ['content', 'reasoning', 'reasoning_content', 'tool_calls'])
    set(message, key, pick(`message.${key}`));
  const choice: Body = { token_ids: null };
  for (const key of ['index', 'finish_reason', 'stop_reason', 'logprobs'])
    set(choice, key, pick(`choice.${key}`));
  const chosenMessage = pick('choice.message');
  choice.message = chosenMessage === absent ? message : structuredClone(chosenMessage);
  const usage: Body = { extra: { kept: true } };
  for (const key of [
    'prompt_tokens',
    'completion_tokens',
    'total_tokens',
    'prompt_tokens_details',
    'completion_tokens_details',
  ])
    set(usage, key, pick(`usage.${key}`));
  const answer: Body = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'm',
    prompt_logprobs: null,
    kv_transfer_params: null,
  };
  set(answer, 'created', pick('created'));
  set(answer, 'system_fingerprint', pick('system_fingerprint'));
  const chosenUsage = pick('usage');
  if (chosenUsage === absent) answer.usage = usage;
  else set(answer, 'usage', chosenUsage);
  const chosenChoices = pick('choices');
  answer.choices =
    chosenChoices === absent ? [choice, structuredClone(choice)] : structuredClone(chosenChoices);
  return answer;
}

// A small fixed generator, so that a failure names a body that can be made again.
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function bodies(): Body[] {
  const all: Body[] = [];
  const paths = Object.keys(palette);
  // Every value of every field, the others at their usual value; `choices` usual is two copies of the choice.
  const usual = (path: string): unknown =>
    path === 'choices' || path === 'choice.message' || path === 'usage'
      ? absent
      : ((palette[path] as unknown[])[2] ?? absent);
  for (const path of paths)
    for (const value of palette[path] as unknown[])
      all.push(body((p) => (p === path ? value : usual(p))));
  // Random mixes, most of them of values the schema takes.
  const next = random(15);
  for (let round = 0; round < 4000; round += 1) {
    all.push(
      body((path) => {
        const values = palette[path] as unknown[];
        if (path === 'choices' || path === 'choice.message' || path === 'usage')
          return next() < 0.9 ? absent : values[Math.floor(next() * values.length)];
        return values[
          Math.floor(next() * Math.min(values.length, next() < 0.8 ? 4 : values.length))
        ];
      }),
    );
  }
  return all;
}

describe('fastUpstreamChatCompletion', () => {
  it("gives the schema's output for every body the schema takes, and declines the others untouched", () => {
    let taken = 0;
    let refused = 0;
    for (const answer of bodies()) {
      const expected = upstreamChatCompletionSchema.safeParse(structuredClone(answer));
      const input = structuredClone(answer);
      const fast = fastUpstreamChatCompletion(input);
      if (expected.success) {
        expect(fast, JSON.stringify(answer)).toEqual(expected.data);
        taken += 1;
      } else {
        expect(fast, JSON.stringify(answer)).toBeUndefined();
        expect(input).toEqual(answer);
        refused += 1;
      }
    }
    // Both sides of the comparison were exercised in number.
    expect(taken).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(1000);
  });

  it("reads vLLM's answer in place, filling the counts it leaves out", () => {
    const answer = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_767_225_600,
      model: 'm',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hi.', tool_calls: [] },
          logprobs: null,
          finish_reason: 'stop',
          stop_reason: null,
        },
      ],
      usage: {
        prompt_tokens: 7,
        total_tokens: 9,
        completion_tokens: 2,
        prompt_tokens_details: null,
      },
      system_fingerprint: null,
    };
    const read = fastUpstreamChatCompletion(answer);
    expect(read).toBe(answer);
    expect(read?.usage).toEqual({
      prompt_tokens: 7,
      total_tokens: 9,
      completion_tokens: 2,
      prompt_tokens_details: null,
    });
    expect(fastUpstreamChatCompletion({ choices: [{ message: {} }], usage: {} })?.usage).toEqual({
      prompt_tokens: 0,
    });
  });
});
