import { describe, expect, it } from 'vitest';
import { decodeChoice } from './decode-choice.js';
import type { DecodeLimits, DecodeOutcome, DecodeStep } from './decode-choice.js';
import type { Reply } from '../text/compose-reply.js';

const limits: DecodeLimits = {
  maxTokens: 1000,
  minTokens: 0,
  stop: [],
  stopTokenIds: [],
  ignoreEos: false,
  includeStopStrInOutput: false,
  badWords: [],
};
const reply: Reply = {
  reasoning: undefined,
  content: 'Grüße aus 東京 — hello world',
  continuation: (k) => ` more ${k}`,
};

function run(generator: Generator<DecodeStep, DecodeOutcome, undefined>): {
  deltas: string[];
  outcome: DecodeOutcome;
} {
  const deltas: string[] = [];
  for (;;) {
    const result = generator.next();
    if (result.done === true) return { deltas, outcome: result.value };
    deltas.push(result.value.delta);
  }
}

describe('decodeChoice', () => {
  it('releases deltas that never split a character and join to the whole content', () => {
    const { deltas, outcome } = run(decodeChoice(reply, limits));
    expect(deltas.join('') + outcome.tail.content).toBe(reply.content);
    expect(deltas.some((delta) => delta.includes('\uFFFD'))).toBe(false);
    expect(outcome.content).toBe(reply.content);
  });

  it('holds back text while a stop string may still be forming', () => {
    const { deltas, outcome } = run(decodeChoice(reply, { ...limits, stop: ['hello world'] }));
    expect(deltas.join('') + outcome.tail.content).toBe('Grüße aus 東京 — ');
    expect(outcome.stopReason).toBe('hello world');
  });

  it('continues past the natural end until min_tokens', () => {
    const natural = run(decodeChoice(reply, limits)).outcome.tokenIds.length;
    const { outcome } = run(decodeChoice(reply, { ...limits, minTokens: natural + 10 }));
    expect(outcome.tokenIds.length).toBeGreaterThanOrEqual(natural + 10);
    expect(outcome.content.startsWith(reply.content)).toBe(true);
    expect(outcome.finishReason).toBe('stop');
  });
});
