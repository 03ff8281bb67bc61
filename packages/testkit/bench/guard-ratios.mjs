// `--guard=<ratio>` (CI's regression guard): each throughput scenario's infergate / floor
// req/s must reach the bound. One short run is noisy on a shared machine, so a scenario below the
// bound is measured up to twice more, floor and infergate again side by side and for longer (until
// one run reaches the bound), and judged on the best of its ratios: the machine's noise only ever
// slows a run down, while a regression in infergate lowers every run. A scenario whose requests failed the bench's checks fails at once.
import { measureThroughput } from './measure.mjs';

const guardedRetries = 2;

/** The guard's rows: { id, title, ratios, ratio, met }; `remeasure(scenario)` gives one more ratio. */
export async function guardRatios({ bound, entries, scenarios, remeasure, log }) {
  const rows = [];
  for (const entry of entries) {
    const [floor, infergate] = ['floor', 'infergate'].map(
      (name) => entry.targets.find((target) => target.name === name)?.throughput,
    );
    if (floor === undefined || infergate === undefined) continue;
    const failed = floor.failed ?? infergate.failed;
    const ratios = failed === undefined ? [infergate.rps / floor.rps] : [];
    const scenario = scenarios.find((candidate) => candidate.id === entry.id);
    // The best ratio decides: once one reaches the bound, more runs cannot change the verdict.
    for (
      let retry = 0;
      failed === undefined && ratios.every((ratio) => ratio < bound) && retry < guardedRetries;
      retry += 1
    ) {
      log(
        `  guard: scenario ${entry.id} at ${ratios.at(-1).toFixed(2)} x, below ${bound} x: measuring floor and infergate again`,
      );
      ratios.push(await remeasure(scenario));
    }
    const ratio =
      ratios.length === 0 || ratios.some(Number.isNaN) ? Number.NaN : Math.max(...ratios);
    rows.push({
      id: entry.id,
      title: entry.title,
      ratios,
      ratio,
      failed,
      met: failed === undefined && ratio >= bound,
    });
  }
  return rows;
}

// A re-measure warms and runs longer than quick mode does: in its first seconds infergate is still
// being optimised by V8, and its throughput climbs second by second.
const remeasureSeconds = 3;

/** One more ratio for `scenario`: floor and infergate measured again, one after the other, for longer. */
export async function remeasureRatio(settings, floor, infergate, scenario, headers) {
  const longer = {
    ...settings,
    warmSeconds: Math.max(remeasureSeconds, settings.warmSeconds),
    seconds: Math.max(remeasureSeconds, settings.seconds),
  };
  const [floorPeak, infergatePeak] = await measureThroughput(
    longer,
    [floor, infergate],
    scenario,
    headers,
  );
  if (floorPeak.failed !== undefined || infergatePeak.failed !== undefined) return Number.NaN;
  return infergatePeak.rps / floorPeak.rps;
}

export function guardTable(rows, bound) {
  const lines = [`scenario  ratios (infergate / floor req/s)  judged  bound   verdict`];
  for (const row of rows) {
    const ratios =
      row.failed === undefined
        ? row.ratios.map((ratio) => ratio.toFixed(2)).join(', ')
        : `requests failed: ${row.failed}`;
    lines.push(
      `${String(row.id).padEnd(8)}  ${ratios.padEnd(32)}  ${Number.isFinite(row.ratio) ? row.ratio.toFixed(2).padStart(6) : '     -'}  >= ${bound}  ${row.met ? 'MET' : 'FAILED'}`,
    );
  }
  return lines.join('\n');
}

/**
 * All that `--guard` prints: on a pass one line, the lowest ratio and its scenario; on a failure the
 * guard's table and, for each scenario that failed, why.
 */
export function guardVerdict(rows, bound) {
  const failing = rows.filter((row) => !row.met);
  if (rows.length > 0 && failing.length === 0) {
    const lowest = rows.reduce((low, row) => (row.ratio < low.ratio ? row : low));
    return `bench guard: passed, lowest infergate/floor ratio ${lowest.ratio.toFixed(2)} (scenario ${lowest.id}; bound ${bound})`;
  }
  const reasons = failing.map((row) =>
    row.failed !== undefined
      ? `scenario ${row.id} failed (${row.title}): requests failed the bench's checks: ${row.failed}`
      : `scenario ${row.id} failed (${row.title}): infergate/floor req/s ${Number.isFinite(row.ratio) ? row.ratio.toFixed(2) : 'not measured'} at best of ${row.ratios.length} runs, below ${bound}`,
  );
  if (rows.length === 0) reasons.push('no throughput scenario was measured');
  return [
    `bench guard: FAILED (infergate/floor req/s must reach ${bound} in every scenario)`,
    guardTable(rows, bound),
    ...reasons,
  ].join('\n');
}
