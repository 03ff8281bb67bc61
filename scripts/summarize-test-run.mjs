// The lines `pnpm test` prints for one suite (`turbo run test` or `test:contract`), which runs as more
// than one turbo run (its parallel group, then its serial group): how many packages passed, how many
// tests vitest counted in their logs, and each package's time over all the runs.
//
// Usage: node scripts/summarize-test-run.mjs record <turbo output>   (after each run: prints one JSON
//          line per task, from the run summary turbo writes with --summarize, named in its output as
//          `Summary: <path>`, and the task's log, which the next run rewrites)
//        node scripts/summarize-test-run.mjs print <records>         (the suite's two lines)
// `record` prints nothing and exits 1 when the output names no run summary; `print` exits 1 on no record.
import { existsSync, readFileSync } from 'node:fs';

const ansi = /\x1b\[[0-9;]*m/g;
const [mode, file] = process.argv.slice(2);

/** `1m40s`, `42s`. */
function duration(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds < 60
    ? `${seconds}s`
    : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

/** vitest's own counts from the end of a task's log (`Tests  1 failed | 84 passed (85)`): { tests, failed, files }. */
function vitestCounts(logFile) {
  if (!logFile || !existsSync(logFile)) return undefined;
  const lines = readFileSync(logFile, 'utf8').replace(ansi, '').split('\n');
  const line = (label) =>
    lines.findLast((candidate) => candidate.trimStart().startsWith(`${label} `));
  const total = (text) =>
    text === undefined
      ? undefined
      : Number(/\((\d+)\)\s*$/.exec(text)?.[1] ?? /(\d+) passed/.exec(text)?.[1]);
  const tests = line('Tests');
  if (total(tests) === undefined || Number.isNaN(total(tests))) return undefined;
  return {
    tests: total(tests),
    failed: Number(/(\d+) failed/.exec(tests)?.[1] ?? 0),
    files: total(line('Test Files')) ?? 0,
  };
}

if (mode === 'record') {
  const output =
    file !== undefined && existsSync(file) ? readFileSync(file, 'utf8').replace(ansi, '') : '';
  const path = /^\s*Summary:\s+(\S+\.json)\s*$/m.exec(output)?.[1];
  if (path === undefined || !existsSync(path)) process.exit(1);
  const summary = JSON.parse(readFileSync(path, 'utf8'));
  for (const task of summary.tasks.filter((candidate) => candidate.command !== '<NONEXISTENT>')) {
    const record = {
      package: task.package.replace(/^@infergate\//, ''),
      task: task.task,
      ran: task.execution !== undefined,
      cached: task.cache?.status === 'HIT',
      passed: task.execution?.exitCode === 0,
      ms: task.execution === undefined ? 0 : task.execution.endTime - task.execution.startTime,
      counts: vitestCounts(task.logFile),
      runStart: summary.execution.startTime,
      runEnd: summary.execution.endTime,
    };
    process.stdout.write(`${JSON.stringify(record)}\n`);
  }
} else if (mode === 'print') {
  const records = (file !== undefined && existsSync(file) ? readFileSync(file, 'utf8') : '')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
  if (records.length === 0) process.exit(1);
  // One entry per package and task, over the runs: the times and counts add up.
  const entries = new Map();
  for (const record of records) {
    const key = `${record.package}#${record.task}`;
    const entry = entries.get(key) ?? {
      ...record,
      ms: 0,
      counts: undefined,
      passed: true,
      ran: false,
      cached: true,
      runs: 0,
    };
    entry.ms += record.ms;
    entry.ran ||= record.ran;
    entry.cached &&= record.cached;
    entry.passed &&= record.passed;
    entry.runs += 1;
    if (record.counts !== undefined) {
      const counts = entry.counts ?? { tests: 0, failed: 0, files: 0 };
      entry.counts = {
        tests: counts.tests + record.counts.tests,
        failed: counts.failed + record.counts.failed,
        files: counts.files + record.counts.files,
      };
    }
    entries.set(key, entry);
  }
  const tasks = [...entries.values()];
  const failed = tasks.filter((task) => !task.passed);
  const cached = tasks.filter((task) => task.cached);
  let tests = 0;
  let failedTests = 0;
  let files = 0;
  const perPackage = tasks.map((task) => {
    tests += task.counts?.tests ?? 0;
    failedTests += task.counts?.failed ?? 0;
    files += task.counts?.files ?? 0;
    const time = !task.ran ? 'not run' : task.cached ? 'cached' : duration(task.ms);
    const mark = task.passed ? '' : ' FAILED';
    const failedCount = task.counts?.failed ? `, ${task.counts.failed} failed` : '';
    const name = task.task === 'build' ? `${task.package} (build)` : task.package;
    return `${name} ${time}${task.counts === undefined ? '' : ` (${task.counts.tests}${failedCount})`}${mark}`;
  });
  const wall = duration(
    Math.max(...records.map((record) => record.runEnd)) -
      Math.min(...records.map((record) => record.runStart)),
  );
  const counted =
    tests > 0
      ? `, ${tests.toLocaleString('en-US')} tests${failedTests > 0 ? ` (${failedTests} failed)` : ''} in ${files} files`
      : '';
  const fromCache = cached.length > 0 ? ` (${cached.length} from turbo's cache)` : '';
  const verdict =
    failed.length === 0
      ? 'passed'
      : `FAILED in ${failed.map((task) => `${task.package}#${task.task}`).join(', ')}`;
  process.stdout.write(
    `  ${verdict}: ${tasks.length - failed.length} of ${tasks.length} packages${fromCache}${counted}; ${wall}\n`,
  );
  process.stdout.write(`  per package: ${perPackage.join(', ')}\n`);
} else {
  process.stderr.write(
    'usage: node scripts/summarize-test-run.mjs record <turbo output> | print <records>\n',
  );
  process.exit(2);
}
