import { describe, expect, it } from 'vitest';
import { resolveDotSegments } from './resolve-dot-segments.js';

describe('resolveDotSegments', () => {
  it.each([
    ['/v1/./models', '/v1/models'],
    ['/v1/x/../models', '/v1/models'],
    ['/v1/%2e/models', '/v1/models'],
    ['/v1/x/%2E%2E/models?after=a', '/v1/models?after=a'],
    ['/../../etc/passwd', '/etc/passwd'],
  ])('resolves %s to %s', (target, resolved) => {
    expect(resolveDotSegments(target)).toBe(resolved);
  });

  it('returns a target without dot segments as it is, file names with dots included', () => {
    for (const target of [
      '/v1/models',
      '/v1/models/qwen3.5-8b',
      '/docs/app.js',
      '/v1/models/a%2Fb',
    ])
      expect(resolveDotSegments(target)).toBe(target);
  });
});
