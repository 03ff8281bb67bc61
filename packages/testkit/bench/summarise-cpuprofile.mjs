// Summarises a V8 .cpuprofile: self time per function and per package, biggest first.
//   node summarise-cpuprofile.mjs <file.cpuprofile> [top]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import process from 'node:process';

/** Where a script comes from: a node_modules package, one of our packages' dist, node itself, or V8. */
export function moduleOf(url) {
  if (url === '') return '(v8 / native)';
  if (url.startsWith('node:')) return 'node core';
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pnpm) return pnpm[1];
  const ours = /\/(packages|apps)\/([^/]+)\//.exec(url);
  if (ours) return `@infergate/${ours[2]}`;
  return url.replace(/^file:\/\//, '');
}

export function summariseCpuProfile(profile, top = 25) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicroseconds = new Map();
  for (let index = 0; index < profile.samples.length; index += 1) {
    const id = profile.samples[index];
    selfMicroseconds.set(id, (selfMicroseconds.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  }
  const total = [...selfMicroseconds.values()].reduce((sum, value) => sum + value, 0);
  const byFunction = new Map();
  const byModule = new Map();
  for (const [id, microseconds] of selfMicroseconds) {
    const { callFrame } = nodes.get(id);
    const file = callFrame.url.replace(
      /^file:\/\/.*\/(node_modules\/\.pnpm\/[^/]+\/node_modules\/|(?=packages\/|apps\/))/,
      '',
    );
    const key = `${callFrame.functionName || '(anonymous)'}  ${file}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + microseconds);
    const module = moduleOf(callFrame.url);
    byModule.set(module, (byModule.get(module) ?? 0) + microseconds);
  }
  const percent = (value) => `${((value / total) * 100).toFixed(1).padStart(5)} %`;
  const lines = [`total sampled ${(total / 1000).toFixed(0)} ms`, '', 'self time by package:'];
  for (const [module, microseconds] of [...byModule].sort((a, b) => b[1] - a[1]).slice(0, 15))
    lines.push(`  ${percent(microseconds)}  ${module}`);
  lines.push('', `top ${top} functions by self time:`);
  for (const [key, microseconds] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${percent(microseconds)}  ${key}`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: summarise-cpuprofile.mjs <file.cpuprofile> [top]');
  process.stdout.write(
    `${summariseCpuProfile(JSON.parse(readFileSync(file, 'utf8')), Number(process.argv[3] ?? 25))}\n`,
  );
}
