import { Writable } from 'node:stream';
import { pino } from 'pino';
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
import { startNodeGateway, testMetricsKey, type NodeGateway } from './start-node-gateway.js';

/*
 * Connections are bounded and their exhaustion visible. With limits.max_connections 20, 40
 * idle keep-alive connections: the 20 over the cap are closed at once and counted, the admitted ones
 * still serve requests, one warn line says the cap was reached, and once connections close new ones
 * are admitted again.
 */

const cap = 20;
let upstream: RecordingUpstream;
let gateway: NodeGateway;
const lines: { level: number; msg: string }[] = [];

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as { level: number; msg: string });
      done();
    },
  });
  gateway = await startNodeGateway(
    { upstreams: upstreamsServingEverything(upstream.url), limits: { max_connections: cap } },
    { logger: pino({ level: 'info' }, sink) },
  );
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

const connectionLines = () => lines.filter((line) => line.msg.startsWith('connections:'));

async function connectionMetrics(
  connection: IdleConnection,
): Promise<{ open: number; refused: number }> {
  const answer = await connection.get('/metrics', { authorization: `Bearer ${testMetricsKey}` });
  expect(answer.status).toBe(200);
  const samples = parsePrometheusText(answer.body);
  return {
    open: metricValue(samples, 'infergate_connections_open'),
    refused: metricValue(samples, 'infergate_connections_refused_total'),
  };
}

/** Waits (generously) for a condition the server reaches on its own. */
async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never: ${what}`);
}

describe('limits.max_connections on the node-server', () => {
  it('refuses and counts the connections over the cap, serves the admitted ones, and admits again once some close', async () => {
    const admitted: IdleConnection[] = [];
    for (let index = 0; index < cap; index += 1)
      admitted.push(await openIdleConnection(gateway.baseUrl));
    // Every one of them is the server's before the next ones arrive.
    expect((await admitted[0]?.get('/healthz'))?.status).toBe(200);
    const extra = await Promise.all(
      Array.from({ length: cap }, () => openIdleConnection(gateway.baseUrl)),
    );
    await Promise.all(extra.map((connection) => connection.closed));
    expect(admitted.filter((connection) => connection.isClosed())).toHaveLength(0);

    const atCap = await connectionMetrics(admitted[1] as IdleConnection);
    expect(atCap).toEqual({ open: cap, refused: cap });
    expect((await admitted[cap - 1]?.get('/healthz'))?.status).toBe(200);
    expect(connectionLines().map((line) => [line.level, line.msg])).toEqual([
      [40, 'connections: limits.max_connections reached, new connections are refused'],
    ]);

    for (const connection of admitted.splice(0, 5)) connection.socket.destroy();
    await eventually(
      async () => (await connectionMetrics(admitted[0] as IdleConnection)).open === cap - 5,
      'five connections closed on the server',
    );
    const again = await openIdleConnection(gateway.baseUrl);
    expect((await again.get('/healthz')).status).toBe(200);
    await eventually(() => connectionLines().length === 2, 'the end of the episode logged');
    expect(connectionLines()[1]?.msg).toBe('connections: below limits.max_connections again');
    const after = await connectionMetrics(again);
    expect(after.refused).toBe(cap);
    process.stdout.write(
      `max_connections ${cap}: 40 idle connections, ${atCap.open} admitted, ${atCap.refused} refused; after 5 closed, a new one served\n`,
    );
    for (const connection of [...admitted, again]) connection.socket.destroy();
  });
});
