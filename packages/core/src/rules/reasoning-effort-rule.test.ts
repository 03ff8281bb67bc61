import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../catalogue/default-catalogue.js';
import type { ModelEntry } from '../catalogue/catalogue-types.js';
import { isGatewayError } from '../errors/gateway-error.js';
import { reasoningEffortRule } from './reasoning-effort-rule.js';

function entry(id: string): ModelEntry {
  const found = defaultCatalogue.models.get(id);
  if (!found) throw new Error(`no catalogue entry ${id}`);
  return found;
}

function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error))
      return { status: error.status, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('reasoningEffortRule', () => {
  // The spec's beta53 table: clear_thinking fixed per variant; effort low|high|max (default max) or locked to low.
  it.each([
    [
      'beta53-flash-chat',
      undefined,
      { enable_thinking: true, clear_thinking: true, reasoning_effort: 'max' },
    ],
    [
      'beta53-flash-chat',
      'low',
      { enable_thinking: true, clear_thinking: true, reasoning_effort: 'low' },
    ],
    [
      'beta53-flash-agent',
      'high',
      { enable_thinking: true, clear_thinking: false, reasoning_effort: 'high' },
    ],
    [
      'beta53-flash-agent',
      undefined,
      { enable_thinking: true, clear_thinking: false, reasoning_effort: 'max' },
    ],
    [
      'beta53-flash-chat-low',
      undefined,
      { enable_thinking: true, clear_thinking: true, reasoning_effort: 'low' },
    ],
    [
      'beta53-flash-agent-low',
      'low',
      { enable_thinking: true, clear_thinking: false, reasoning_effort: 'low' },
    ],
  ] as const)('%s with effort %s sends %j', (id, requested, settings) => {
    expect(reasoningEffortRule(entry(id), requested, 'reasoning_effort')).toEqual(settings);
  });

  it.each(['high', 'max'] as const)(
    'refuses %s on a locked -low variant, naming the param',
    (requested) => {
      const refused = refusal(() =>
        reasoningEffortRule(entry('beta53-flash-agent-low'), requested, 'reasoning_effort'),
      );
      expect(refused).toMatchObject({ status: 400, param: 'reasoning_effort' });
      expect(refused.message).toContain('locked');
    },
  );

  it('refuses reasoning_effort on a model without a reasoning policy, naming the field as sent', () => {
    expect(
      refusal(() =>
        reasoningEffortRule(entry('alpha35-122b-a10b-thinking-general'), 'low', 'reasoning.effort'),
      ),
    ).toMatchObject({
      status: 400,
      param: 'reasoning.effort',
    });
  });

  it('sends only enable_thinking to models without a policy: on for thinking models, off otherwise', () => {
    expect(
      reasoningEffortRule(entry('alpha36-35b-a3b-thinking-general'), undefined, 'reasoning_effort'),
    ).toEqual({ enable_thinking: true });
    expect(
      reasoningEffortRule(entry('alpha36-35b-a3b-instruct'), undefined, 'reasoning_effort'),
    ).toEqual({ enable_thinking: false });
  });
});
