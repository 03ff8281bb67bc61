import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openIdleConnection,
  startRecordingUpstream,
  upstreamsServingEverything,
  type IdleConnection,
  type RecordingUpstream,
} from '@infergate/testkit';
import { parsePrometheusText } from './parse-prometheus-text.js';
import { metricValue } from './read-metrics.js';
import { startGatewayProcess, type GatewayProcess } from './start-gateway-process.js';

/*
 * Running out of file descriptors failed new connections and /healthz with nothing logged
 * (libuv accepts and closes them itself). The built CLI runs with `ulimit -n 128` (with 64, loading
 * its modules already runs out); a client opens idle connections until the server starts closing new
 * ones unanswered. One warn line says so, the counter moves, and once the connections close a new
 * /healthz is answered again.
 */

const operatorKey = 'ig-fd-ops-0123456789abcdef0123456789ab';
const descriptorLimit = 128;

let upstream: RecordingUpstream;
let gateway: GatewayProcess;

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  gateway = await startGatewayProcess(
    {
      upstreams: upstreamsServingEverything(upstream.url),
      keys: [{ key: operatorKey, name: 'ops', operator: true }],
      timeouts: { shutdown_grace_ms: 500, drain_delay_ms: 0 },
    },
    undefined,
    { logLevel: 'info', prefix: ['bash', '-c', `ulimit -n ${descriptorLimit}; exec "$@"`, 'bash'] },
  );
});

afterAll(async () => {
  await gateway?.stop();
  await upstream?.close();
});

function descriptorLines(): { level: number; msg: string; code?: string }[] {
  return gateway
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string; code?: string })
    .filter((line) => line.msg.includes('file descriptors'));
}

async function exhaustedCount(connection: IdleConnection): Promise<number> {
  const answer = await connection.get('/metrics', { authorization: `Bearer ${operatorKey}` });
  expect(answer.status).toBe(200);
  return metricValue(parsePrometheusText(answer.body), 'infergate_fd_exhausted_total', {
    code: 'EMFILE',
  });
}

async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never: ${what}`);
}

describe(`out of file descriptors (ulimit -n ${descriptorLimit})`, () => {
  it('logs the episode once, counts it, and answers /healthz again once connections close', async () => {
    // Opened first, so that the metrics can be read while no new connection gets through.
    const operator = await openIdleConnection(gateway.baseUrl);
    expect(await exhaustedCount(operator)).toBe(0);

    const held: IdleConnection[] = [];
    let cut = 0;
    while (cut === 0 && held.length < descriptorLimit * 4) {
      const batch = await Promise.all(
        Array.from({ length: 8 }, () => openIdleConnection(gateway.baseUrl)),
      );
      held.push(...batch);
      await new Promise((resolve) => setTimeout(resolve, 100));
      cut = held.filter((connection) => connection.isClosed()).length;
    }
    expect(cut).toBeGreaterThan(0);
    // A few more attempts while it lasts: each fails, none adds a line.
    const more = await Promise.all(
      Array.from({ length: 16 }, () => openIdleConnection(gateway.baseUrl)),
    );
    held.push(...more);
    await Promise.all(more.map((connection) => connection.closed));

    await eventually(() => descriptorLines().length > 0, 'the warn line');
    const episodes = await exhaustedCount(operator);
    expect(episodes).toBe(1);
    expect(descriptorLines()).toEqual([expect.objectContaining({ level: 40, code: 'EMFILE' })]);
    const heldOpen = held.filter((connection) => !connection.isClosed()).length;

    for (const connection of held) connection.socket.destroy();
    let healthz = 0;
    await eventually(async () => {
      try {
        healthz = (
          await fetch(`${gateway.baseUrl}/healthz`, { signal: AbortSignal.timeout(1_000) })
        ).status;
      } catch {
        healthz = 0;
      }
      return healthz === 200;
    }, '/healthz answered again');
    await eventually(() => descriptorLines().length === 2, 'the end of the episode logged');
    const lines = descriptorLines();
    expect(lines.map((line) => line.level)).toEqual([40, 30]);
    expect(await exhaustedCount(operator)).toBe(1);
    process.stdout.write(
      `ulimit -n ${descriptorLimit}: ${held.length} connections tried, ${heldOpen} held open, ${held.length - heldOpen} cut by the server; fd_exhausted_total{EMFILE} ${episodes}; log: ${lines.map((line) => line.msg).join(' | ')}\n`,
    );
    operator.socket.destroy();
  });
});
