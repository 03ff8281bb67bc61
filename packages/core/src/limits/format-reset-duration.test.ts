import { describe, expect, it } from 'vitest';
import { formatResetDuration } from './format-reset-duration.js';

describe('formatResetDuration', () => {
  it('writes durations as the completion API does (1s, 6m0s, 20ms)', () => {
    expect(formatResetDuration(20)).toBe('20ms');
    expect(formatResetDuration(1000)).toBe('1s');
    expect(formatResetDuration(1500)).toBe('1.5s');
    expect(formatResetDuration(2382)).toBe('2.382s');
    expect(formatResetDuration(1005)).toBe('1.005s');
    expect(formatResetDuration(1050)).toBe('1.05s');
    expect(formatResetDuration(60_010)).toBe('1m0.01s');
    expect(formatResetDuration(360_000)).toBe('6m0s');
    expect(formatResetDuration(62_500)).toBe('1m2.5s');
    expect(formatResetDuration(3_600_000)).toBe('1h0m0s');
    expect(formatResetDuration(-5)).toBe('0ms');
  });
});
