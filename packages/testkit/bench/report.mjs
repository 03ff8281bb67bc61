// Tables and the issues' targets (15, and those of 8 and 19 that it left standing), from the results
// of a run. Printing only: a figure never fails the bench.
import { median } from './stats.mjs';

const fixed = (value, digits = 1) =>
  value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(digits);
const integer = (value) =>
  value === undefined || !Number.isFinite(value) ? '-' : Math.round(value).toLocaleString('en-US');

function table(header, rows) {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells) =>
    cells
      .map((cell, column) =>
        column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]),
      )
      .join('  ');
  return [
    line(header),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...rows.map(line),
  ].join('\n');
}

export function throughputTable(scenario) {
  const rate = scenario.targets.find((target) => target.fixedRate)?.fixedRate?.rate;
  const header = [
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'CPU us/req',
    'peak RSS MB',
    'errors',
    `p50 ms @${integer(rate)}/s`,
    `p99 ms @${integer(rate)}/s`,
    'added p99 ms',
    'GC % of time',
    'GC max ms',
  ];
  const rows = scenario.targets.map((target) => {
    const peak = target.throughput;
    const latency = target.fixedRate;
    const direct = scenario.targets.find((entry) => entry.name === 'direct')?.fixedRate;
    const added =
      latency && direct && target.name !== 'direct' ? latency.p99 - direct.p99 : undefined;
    if (peak?.failed)
      return [target.name, `FAILED: ${peak.failed.slice(0, 80)}`, ...header.slice(2).map(() => '')];
    return [
      target.name,
      integer(peak?.rps),
      fixed(peak?.p50, 2),
      fixed(peak?.p99, 2),
      target.name === 'direct' ? '-' : fixed(peak?.cpuUsPerRequest, 0),
      target.name === 'direct'
        ? '-'
        : `${fixed(peak?.peakRssMb, 0)}${peak?.peakRssSinceStart ? '*' : ''}`,
      integer(peak?.errors),
      fixed(latency?.p50, 2),
      fixed(latency?.p99, 2),
      added === undefined ? '-' : `${added >= 0 ? '+' : ''}${added.toFixed(2)}`,
      fixed(latency?.gc?.pausePercent, 2),
      fixed(latency?.gc?.maxPauseMs, 2),
    ];
  });
  return table(header, rows);
}

/**
 * compare-builds.mjs's table: each target's CPU per request (median, and each round's), req/s, CPU
 * against the floor (the first target), and each build after the first the median of its per-round CPU
 * differences from the first build (`results` as measureThroughput returns them, `labels` in order).
 */
export function compareBuildsTable(labels, results) {
  const cpuOf = (result) => result.runs.map((run) => run.cpuUsPerRequest);
  const [floor, first] = results;
  const rows = results.map((result, index) => {
    const cpu = median(cpuOf(result));
    const paired =
      index < 2
        ? undefined
        : median(cpuOf(result).map((value, round) => value - cpuOf(first)[round]));
    return [
      labels[index],
      fixed(cpu, 0),
      cpuOf(result)
        .map((value) => fixed(value, 0))
        .join(' '),
      integer(result.rps),
      index === 0 ? '' : `${fixed(cpu / median(cpuOf(floor)), 2)} x`,
      paired === undefined ? '' : `${paired >= 0 ? '+' : ''}${fixed(paired, 0)}`,
      integer(result.errors),
    ];
  });
  return table(
    ['target', 'CPU us/req', 'per round', 'req/s', 'CPU vs floor', 'vs first build', 'errors'],
    rows,
  );
}

export function longStreamsTable(scenario) {
  const rows = scenario.targets.map((target) => {
    const result = target.longStreams;
    if (result === undefined) return [target.name, '-', '-', '-', '-', '-', '-', '-'];
    const errors =
      Object.entries(result.errors)
        .map(([code, count]) => `${code}: ${count}`)
        .join(', ') || '0';
    return [
      target.name,
      `${result.completed}/${result.streams}`,
      result.peakOpen,
      fixed(result.seconds, 1),
      fixed(result.peakRssMb, 0),
      fixed(result.eventLoopDelayMs?.p99, 1),
      fixed(result.eventLoopDelayMs?.max, 1),
      fixed(result.cpuSeconds, 2),
      errors,
    ];
  });
  return table(
    [
      'target',
      'completed',
      'peak open',
      'seconds',
      'peak RSS MB',
      'loop delay p99 ms',
      'max ms',
      'CPU s',
      'errors',
    ],
    rows,
  );
}

/** Scenario 6's rounds of one body form: `imageBodies` (JSON) or `imageForms` (multipart). */
export function imageTable(scenario, form = 'imageBodies') {
  const rows = [];
  for (const target of scenario.targets) {
    const result = target[form];
    if (result === undefined) continue;
    for (const [label, round] of [
      ['1 at once', result.one],
      [`${round20(result)} at once`, result.many],
    ]) {
      const statuses = Object.entries(round.statuses)
        .map(([code, count]) => `${code}: ${count}`)
        .join(', ');
      rows.push([
        `${target.name} ${form === 'imageForms' ? 'multipart ' : ''}${label}`,
        `${round.ok}/${round.refused}/${round.lost}`,
        fixed(round.seconds, 2),
        fixed(round.rssBeforeMb, 0),
        fixed(round.peakRssMb, 0),
        fixed(round.growthMb, 0),
        `${fixed(round.growthPerBody, 2)} x`,
        statuses,
      ]);
    }
  }
  return table(
    [
      'target',
      '200/503/lost',
      'seconds',
      'RSS before MB',
      'peak RSS MB',
      'growth MB',
      'growth / accepted body',
      'statuses',
    ],
    rows,
  );
}

const round20 = (result) => result.many.count;

export function authTable(scenario) {
  const result = scenario.targets.find((target) => target.auth)?.auth;
  if (result === undefined) return '(not run)';
  return (
    table(
      ['wrong key', 'requests', 'median us'],
      [
        ['shares 0 leading chars', integer(result.perKey), fixed(result.medianUs0, 2)],
        ['shares 31 leading chars', integer(result.perKey), fixed(result.medianUs31, 2)],
      ],
    ) +
    `\ndifference of medians: ${fixed(result.differenceUs, 2)} us; non-401 answers: ${result.errors}`
  );
}

function find(results, scenarioId, targetName) {
  return results.scenarios
    .find((scenario) => scenario.id === scenarioId)
    ?.targets.find((target) => target.name === targetName);
}

/**
 * Every bench target with the measured value; `met` is undefined when the figure is missing. Each
 * bound is a ratio to the floor measured in the same run, so the machine's speed divides out.
 */
export function evaluateTargets(results) {
  const checks = [];
  const check = (name, value, bound, met, unit = '') =>
    checks.push({ name, value, bound, unit, met: Number.isFinite(value) ? met : undefined });
  const of = (id, name) => find(results, id, name)?.throughput;
  const ratio = (id, field) => of(id, 'infergate')?.[field] / of(id, 'floor')?.[field];
  const scenarios = [
    [1, 'chat'],
    [2, 'chat stream'],
    [3, 'embeddings'],
    [4, 'responses stream'],
    [10, 'embeddings base64'],
  ];
  for (const [id, name] of scenarios)
    check(
      `${id} ${name}: infergate / floor req/s`,
      ratio(id, 'rps'),
      '>= 0.7',
      ratio(id, 'rps') >= 0.7,
      ' x',
    );
  check(
    '1 chat: infergate / floor CPU per request',
    ratio(1, 'cpuUsPerRequest'),
    '<= 1.5',
    ratio(1, 'cpuUsPerRequest') <= 1.5,
    ' x',
  );
  for (const [id] of scenarios)
    check(
      `${id}: infergate / floor p99 at the bench's concurrency`,
      ratio(id, 'p99'),
      '<= 2',
      ratio(id, 'p99') <= 2,
      ' x',
    );
  for (const [id] of scenarios) {
    const added =
      find(results, id, 'infergate')?.fixedRate?.p99 - find(results, id, 'direct')?.fixedRate?.p99;
    check(
      `${id}: added p99 vs direct at half of infergate's peak`,
      added,
      '<= 1 ms',
      added <= 1,
      ' ms',
    );
  }
  const streams = find(results, 5, 'infergate')?.longStreams;
  if (streams) {
    check(
      '5 long streams: completed',
      streams.completed,
      `= ${streams.streams}`,
      streams.completed === streams.streams,
    );
    check(
      '5 long streams: peak RSS',
      streams.peakRssMb,
      '<= 256 MB',
      streams.peakRssMb <= 256,
      ' MB',
    );
    const delay = streams.eventLoopDelayMs?.p99;
    check('5 long streams: event-loop delay p99', delay, '<= 100 ms', delay <= 100, ' ms');
  }
  for (const [form, name] of [
    ['imageBodies', '6'],
    ['imageForms', '6 multipart'],
  ]) {
    const images = find(results, 6, 'infergate')?.[form];
    if (!images) continue;
    check(
      `${name} one 50 MiB body: RSS growth / body size`,
      images.one.growthPerBody,
      '<= 3',
      images.one.growthPerBody <= 3,
      ' x',
    );
    check(
      `${name} ${images.many.count} at once: lost (neither 200 nor 503 + Retry-After)`,
      images.many.lost,
      '= 0',
      images.many.lost === 0,
    );
    check(
      `${name} ${images.many.count} at once: RSS growth / accepted bodies`,
      images.many.growthPerBody,
      '<= 3',
      images.many.growthPerBody <= 3,
      ' x',
    );
  }
  const auth = find(results, 7, 'infergate')?.auth;
  if (auth)
    check(
      '7 wrong keys: |difference of medians|',
      Math.abs(auth.differenceUs),
      '< 1 us',
      Math.abs(auth.differenceUs) < 1,
      ' us',
    );
  // The lease bounds, judged on the in-process figures: the HTTP rounds differ by far more than them.
  const limiterRows = results.limiter?.perRequest?.rows;
  if (limiterRows) {
    const added = (name) => limiterRows.find((row) => row.name === name)?.addedUs;
    check(
      '8 key limits in memory: added per request',
      added('memory'),
      '<= +10 us',
      added('memory') <= 10,
      ' us',
    );
    check(
      '8 key limits in Redis (leases): added per request',
      added('redis'),
      '<= +30 us',
      added('redis') <= 30,
      ' us',
    );
  }
  return checks;
}

export function targetsTable(checks) {
  return table(
    ['target', 'measured', 'bound', 'verdict'],
    checks.map((check) => [
      check.name,
      Number.isFinite(check.value)
        ? `${Number.isInteger(check.value) ? check.value : check.value.toFixed(2)}${check.unit}`
        : '-',
      check.bound,
      check.met === undefined ? 'not measured' : check.met ? 'MET' : 'NOT MET',
    ]),
  );
}
