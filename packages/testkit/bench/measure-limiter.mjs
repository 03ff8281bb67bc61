// Scenario 8: what key limits cost per request, printed twice. First at the level of the
// limit store itself, in one process (apps/node-server/bench/limiter-per-request.mjs: ns and heap bytes per
// request of no limits, the in-memory store and the Redis store, interleaved rounds, medians), the
// figure that resolves a few microseconds; then over HTTP (apps/node-server/bench/limiter-cost.mjs: CPU
// per request and req/s through the gateway), whose rounds differ by far more than that.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import process from 'node:process';

// The child's stdout is shown as it comes; its last line is the JSON of its figures.
function runScript(cwd, args, env, log) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = output.trimEnd().split('\n');
      const last = lines.at(-1) ?? '';
      for (const line of lines.slice(0, -1)) log(`  ${line}`);
      if (code !== 0) return reject(new Error(`${args.at(-1)} exited with ${code}`));
      try {
        resolve(JSON.parse(last));
      } catch {
        log(`  ${last}`);
        resolve(undefined);
      }
    });
  });
}

export async function measureLimiter({ repositoryRoot, quick, log }) {
  const cwd = join(repositoryRoot, 'apps', 'node-server');
  // A new space of 64 MiB per semi-space: no collection runs within an allocation sample.
  const perRequest = await runScript(
    cwd,
    [
      '--expose-gc',
      '--min-semi-space-size=64',
      '--max-semi-space-size=64',
      'bench/limiter-per-request.mjs',
    ],
    quick ? { BENCH_LIMITER_ROUNDS: '3' } : {},
    log,
  );
  log('');
  const http = await runScript(
    cwd,
    ['bench/limiter-cost.mjs'],
    quick ? { BENCH_ROUNDS: '3', BENCH_REQUESTS: '1000' } : {},
    log,
  );
  return { perRequest, http };
}
