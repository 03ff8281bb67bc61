// Prints the failures of the last `turbo run test` and `turbo run test:contract` from each package's
// turbo logs: vitest's own "Failed Tests" section, or the end of a log whose run crashed before
// vitest could summarise.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const startedAt = Number(process.argv[2] ?? 0) * 1000;
const ansi = /\x1b\[[0-9;]*m/g;
const maxLines = 200;

for (const group of ['packages', 'apps']) {
  if (!existsSync(group)) continue;
  for (const [name, task] of readdirSync(group).flatMap((name) =>
    ['test', 'test:contract'].map((task) => [name, task]),
  )) {
    const log = join(group, name, '.turbo', `turbo-${task}.log`);
    // A package whose tests did not run in this invocation keeps an older log: skip it.
    if (!existsSync(log) || statSync(log).mtimeMs < startedAt) continue;
    const lines = readFileSync(log, 'utf8').replace(ansi, '').split('\n');
    const summary = lines.findLastIndex((line) => line.includes('Test Files '));
    const failedAt = lines.findIndex(
      (line) =>
        line.includes('Failed Tests') ||
        line.includes('Failed Suites') ||
        line.includes('Unhandled Errors'),
    );
    const failed = failedAt >= 0 || summary < 0 || / failed/.test(lines[summary] ?? '');
    if (!failed) continue;
    const from = failedAt >= 0 ? failedAt : Math.max(0, lines.length - 60);
    const section = lines.slice(from, summary > from ? summary + 2 : lines.length);
    process.stdout.write(`\n==== ${group}/${name}: what failed (${log}) ====\n`);
    process.stdout.write(`${section.slice(0, maxLines).join('\n')}\n`);
    if (section.length > maxLines)
      process.stdout.write(`... ${section.length - maxLines} more lines in ${log}\n`);
  }
}
