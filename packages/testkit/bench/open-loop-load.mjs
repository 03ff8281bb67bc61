// The fixed-rate runs through open-loop.c, compiled once per bench run into its work directory: an
// open loop in C, so that the generator's own pauses do not count as the proxy's latency. Where no C
// compiler is found the bench keeps the undici generator (http-load.mjs) and says so.
import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { URL, fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const source = join(dirname(fileURLToPath(import.meta.url)), 'open-loop.c');
const run = promisify(execFile);

/** The compiled generator's path, or undefined (with the reason logged) where it cannot be built. */
export function buildOpenLoop(workDirectory, log) {
  const binary = join(workDirectory, 'open-loop');
  try {
    execFileSync('cc', ['-O2', '-o', binary, source], { stdio: ['ignore', 'ignore', 'pipe'] });
    return binary;
  } catch (error) {
    log(
      `open-loop.c not compiled (${error.code === 'ENOENT' ? 'no cc' : String(error.stderr ?? error.message).trim()}): fixed-rate runs use undici`,
    );
    return undefined;
  }
}

/** `rate` requests per second to `origin` for `warmSeconds` unmeasured then `seconds` measured; latencies in ms. */
export async function openLoopFixedRate({
  binary,
  workDirectory,
  origin,
  request,
  rate,
  warmSeconds,
  seconds,
  connections = 64,
}) {
  const { hostname, port } = new URL(origin);
  const bodyFile = join(workDirectory, 'open-loop-body');
  writeFileSync(bodyFile, request.body);
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`);
  const { stdout } = await run(
    binary,
    [
      hostname,
      port,
      request.path,
      bodyFile,
      String(rate),
      String(warmSeconds),
      String(seconds),
      String(connections),
      ...headers,
    ],
    {
      timeout: (warmSeconds + seconds) * 1000 + 60_000,
    },
  );
  const result = JSON.parse(stdout);
  return {
    requests: result.requests,
    rate,
    p50: result.p50,
    p99: result.p99,
    max: result.max,
    errors: result.errors,
  };
}
