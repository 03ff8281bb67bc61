import { describe, expect, it } from 'vitest';
// @ts-expect-error: the bench's plain JavaScript module has no types
import { guardVerdict } from '../bench/guard-ratios.mjs';

const row = (id: number, ratios: number[], failed?: string) => {
  const ratio = ratios.length === 0 ? Number.NaN : Math.max(...ratios);
  return {
    id,
    title: `scenario ${id}'s title`,
    ratios,
    ratio,
    failed,
    met: failed === undefined && ratio >= 0.5,
  };
};

// What `pnpm test` shows of the bench's regression guard (run-bench.mjs --guard=0.5).
describe('the bench guard verdict', () => {
  it('is one line on a pass: the lowest ratio and its scenario, no table', () => {
    const verdict: string = guardVerdict(
      [row(1, [0.93]), row(2, [0.42, 0.71]), row(3, [0.88])],
      0.5,
    );
    expect(verdict).toBe(
      'bench guard: passed, lowest infergate/floor ratio 0.71 (scenario 2; bound 0.5)',
    );
  });

  it("on a failure: the guard's table and each failing scenario with why", () => {
    const verdict: string = guardVerdict(
      [row(1, [0.93]), row(2, [0.41, 0.43, 0.4]), row(3, [], 'status 500')],
      0.5,
    );
    const lines = verdict.split('\n');
    expect(lines[0]).toBe(
      'bench guard: FAILED (infergate/floor req/s must reach 0.5 in every scenario)',
    );
    expect(lines[1]).toMatch(/^scenario {2}ratios/);
    expect(lines.filter((line) => / FAILED$/.test(line))).toHaveLength(2);
    expect(lines.slice(-2)).toEqual([
      "scenario 2 failed (scenario 2's title): infergate/floor req/s 0.43 at best of 3 runs, below 0.5",
      "scenario 3 failed (scenario 3's title): requests failed the bench's checks: status 500",
    ]);
  });

  it('fails when nothing was measured', () => {
    expect(guardVerdict([], 0.5)).toMatch(
      /^bench guard: FAILED[\s\S]*no throughput scenario was measured$/,
    );
  });
});
