import { describe, expect, it } from 'vitest';
import { planKeyReload } from './plan-key-reload.js';

const keyA = 'ig-plan-a-0123456789abcdef0123456789abcd';
const keyB = 'ig-plan-b-0123456789abcdef0123456789abcd';
const running = {
  keys: [{ key: keyA, name: 'a' }],
  timeouts: { first_event_ms: 5_000 },
};

describe('planKeyReload', () => {
  it('returns the new keys with their limits, and no section to restart when only keys changed', () => {
    const plan = planKeyReload(
      running,
      {
        keys: [{ key: keyB, name: 'b', limits: { requests_per_minute: 3 } }],
        timeouts: { first_event_ms: 5_000 },
      },
      {},
    );
    expect(plan.keyEntries.map((entry) => [entry.name, entry.limits?.requestsPerMinute])).toEqual([
      ['b', 3],
    ]);
    expect(plan.needRestart).toEqual([]);
  });

  it('names every other section that was added, removed or changed', () => {
    const plan = planKeyReload(
      running,
      { keys: running.keys, limits: { max_concurrent_requests: 5 } },
      {},
    );
    expect(plan.needRestart).toEqual(['limits', 'timeouts']);
  });

  it('keeps the keys of INFERGATE_API_KEYS beside the file', () => {
    const plan = planKeyReload(running, { keys: [] }, { INFERGATE_API_KEYS: keyB });
    expect(plan.keyEntries.map((entry) => entry.key)).toEqual([keyB]);
  });

  it('refuses a file that does not validate, naming the field', () => {
    expect(() =>
      planKeyReload(running, { keys: [{ key: keyA, limits: { requests_per_minute: -1 } }] }, {}),
    ).toThrow(/keys\[0\]\.limits\.requests_per_minute/);
  });

  it('refuses a file that leaves no key at all', () => {
    expect(() => planKeyReload(running, { keys: [] }, {})).toThrow(/^keys: .*no key/);
  });
});
