import { describe, expect, it } from 'vitest';
import { imageQualityRule } from './image-quality-rule.js';

describe('imageQualityRule', () => {
  it.each([
    ['low', 'low'],
    ['medium', 'medium'],
    ['standard', 'medium'],
    ['auto', 'medium'],
    ['high', 'high'],
    ['hd', 'high'],
  ] as const)('sends %s upstream as %s (docs/design.md)', (requested, sent) => {
    expect(imageQualityRule(requested)).toBe(sent);
  });
});
