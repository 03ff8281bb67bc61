// The lines `pnpm test` prints for one `turbo run test` (or `test:contract`): how many packages passed,
// how many tests vitest counted in their logs, and each package's time, from the run summary turbo
// writes with --summarize (.turbo/runs/<id>.json, the newest one written since <since-ms>).
//
// Usage: node scripts/summarize-test-run.mjs <since-ms>
// Prints nothing and exits 1 when turbo wrote no run summary since then.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const since = Number(process.argv[2] ?? 0);
const runs = join('.turbo', 'runs');
const ansi = /\x1b\[[0-9;]*m/g;

const newest = existsSync(runs)
  ? readdirSync(runs)
      .filter((name) => name.endsWith('.json'))
      .map((name) => ({ path: join(runs, name), mtime: statSync(join(runs, name)).mtimeMs }))
      .filter((file) => file.mtime >= since)
      .sort((a, b) => b.mtime - a.mtime)[0]
  : undefined;
if (newest === undefined) process.exit(1);

const summary = JSON.parse(readFileSync(newest.path, 'utf8'));

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

const tasks = summary.tasks.filter((task) => task.command !== '<NONEXISTENT>');
const failed = tasks.filter((task) => task.execution?.exitCode !== 0);
const cached = tasks.filter((task) => task.cache?.status === 'HIT');
let tests = 0;
let failedTests = 0;
let files = 0;
const perPackage = tasks.map((task) => {
  const counts = vitestCounts(task.logFile);
  tests += counts?.tests ?? 0;
  failedTests += counts?.failed ?? 0;
  files += counts?.files ?? 0;
  const name = task.package.replace(/^@infergate\//, '');
  const time =
    task.execution === undefined
      ? 'not run'
      : task.cache?.status === 'HIT'
        ? 'cached'
        : duration(task.execution.endTime - task.execution.startTime);
  const mark = task.execution?.exitCode === 0 ? '' : ' FAILED';
  const failedCount = counts?.failed ? `, ${counts.failed} failed` : '';
  return `${name} ${time}${counts === undefined ? '' : ` (${counts.tests}${failedCount})`}${mark}`;
});

const wall = duration(summary.execution.endTime - summary.execution.startTime);
const counted =
  tests > 0
    ? `, ${tests.toLocaleString('en-US')} tests${failedTests > 0 ? ` (${failedTests} failed)` : ''} in ${files} files`
    : '';
const fromCache = cached.length > 0 ? ` (${cached.length} from turbo's cache)` : '';
const verdict =
  failed.length === 0 ? 'passed' : `FAILED in ${failed.map((task) => task.taskId).join(', ')}`;
process.stdout.write(
  `  ${verdict}: ${tasks.length - failed.length} of ${tasks.length} packages${fromCache}${counted}; ${wall}\n`,
);
process.stdout.write(`  per package: ${perPackage.join(', ')}\n`);
