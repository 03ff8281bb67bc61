import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '../catalogue/default-catalogue.js';
import type { ModelEntry } from '../catalogue/catalogue-types.js';
import { backendEnforcedSamplingRule } from './backend-enforced-sampling-rule.js';

function entry(id: string): ModelEntry {
  const found = defaultCatalogue.models.get(id);
  if (!found) throw new Error(`no catalogue entry ${id}`);
  return found;
}

const request = {
  model: 'm',
  temperature: 0.2,
  top_p: 0.9,
  top_k: 5,
  min_p: 0.1,
  repetition_penalty: 1.1,
  presence_penalty: 1,
  frequency_penalty: 1,
  length_penalty: 1,
  use_beam_search: false,
  seed: 7,
  max_tokens: 30,
  stop: 'x',
  bad_words: ['w'],
};

describe('backendEnforcedSamplingRule', () => {
  // The spec: alpha35 creative and thinking-coding, and alpha36 coding, apply sampling on the backend.
  it.each([
    'alpha35-122b-a10b-instruct-creative',
    'alpha35-122b-a10b-thinking-coding',
    'alpha36-35b-a3b-thinking-coding',
  ])('drops every sampling parameter for %s and names them', (id) => {
    const result = backendEnforcedSamplingRule(entry(id), request);
    expect(result.ignored).toEqual([
      'temperature',
      'top_p',
      'top_k',
      'min_p',
      'repetition_penalty',
      'presence_penalty',
      'frequency_penalty',
      'use_beam_search',
      'length_penalty',
    ]);
    expect(result.request).toEqual({
      model: 'm',
      seed: 7,
      max_tokens: 30,
      stop: 'x',
      bad_words: ['w'],
    });
    expect(request.temperature).toBe(0.2);
  });

  it('keeps everything for a full-control model', () => {
    const result = backendEnforcedSamplingRule(
      entry('alpha35-122b-a10b-instruct-general'),
      request,
    );
    expect(result).toEqual({ request, ignored: [] });
  });

  it('reports nothing when no sampling parameter was sent', () => {
    expect(
      backendEnforcedSamplingRule(entry('alpha36-35b-a3b-thinking-coding'), {
        model: 'm',
        max_tokens: 3,
      }).ignored,
    ).toEqual([]);
  });
});
