// Closed-loop load with wrk (Debian's package; installed when missing and we are root), or, when wrk
// cannot be had, with the undici closed-loop generator of http-load.mjs.
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';

function hasCommand(name) {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** 'wrk' when wrk is (or could be made) available, else 'undici'. Prints what it did. */
export function ensureWrk(log) {
  if (hasCommand('wrk')) return 'wrk';
  if (process.getuid?.() === 0 && hasCommand('apt-get')) {
    log('wrk missing: apt-get install -y wrk');
    try {
      execFileSync('apt-get', ['install', '-y', '-qq', 'wrk'], {
        stdio: 'ignore',
        timeout: 120_000,
      });
    } catch {
      try {
        execFileSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq wrk'], {
          stdio: 'ignore',
          timeout: 240_000,
        });
      } catch {
        // Falls through to the undici generator below.
      }
    }
    if (hasCommand('wrk')) return 'wrk';
  }
  log(
    'wrk unavailable: using the undici closed-loop generator (slower than wrk; ratios stay comparable)',
  );
  return 'undici';
}

const luaString = (text) =>
  `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

function luaScript({ method, body, headers }) {
  const lines = [`wrk.method = ${luaString(method)}`];
  if (body !== undefined) lines.push(`wrk.body = ${luaString(body)}`);
  for (const [name, value] of Object.entries(headers))
    lines.push(`wrk.headers[${luaString(name)}] = ${luaString(value)}`);
  // wrk counts a status >= 400 as errors.status; every non-200 answer of these routes is >= 400.
  lines.push(`done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRKJSON {"requests":%d,"durationUs":%d,"bytes":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50":%d,"p99":%d,"max":%d}\\n',
    summary.requests, summary.duration, summary.bytes, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max))
end`);
  return `${lines.join('\n')}\n`;
}

/**
 * One wrk run: `connections` keep-alive connections on one thread for `seconds`. Latencies in ms.
 * @returns {Promise<{ requests: number, rps: number, p50: number, p99: number, errors: number }>}
 */
export function runWrk({
  url,
  method = 'POST',
  body,
  headers,
  connections,
  seconds,
  scriptDirectory,
  name,
}) {
  const scriptPath = join(scriptDirectory, `${name}.lua`);
  writeFileSync(scriptPath, luaScript({ method, body, headers }));
  return new Promise((resolve, reject) => {
    const child = spawn(
      'wrk',
      [
        '-t1',
        `-c${connections}`,
        `-d${Math.max(1, Math.round(seconds))}s`,
        '--timeout',
        '10s',
        '-s',
        scriptPath,
        url,
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      output += chunk;
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(killer);
      const line = /WRKJSON (\{.*\})/.exec(output);
      if (!line) {
        reject(new Error(`wrk gave no result: ${output.slice(0, 500)}`));
        return;
      }
      const result = JSON.parse(line[1]);
      const socketErrors = result.connect + result.read + result.write + result.timeout;
      resolve({
        requests: result.requests,
        rps: result.requests / (result.durationUs / 1e6),
        p50: result.p50 / 1000,
        p99: result.p99 / 1000,
        errors: result.status + socketErrors,
      });
    });
  });
}
