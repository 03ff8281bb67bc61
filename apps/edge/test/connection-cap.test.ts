import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  openIdleConnection,
  startRecordingUpstream,
  upstreamsServingEverything,
  type IdleConnection,
  type RecordingUpstream,
} from '@infergate/testkit';
import { testApiKey } from './edge-test-env.js';
import { startEdgeOnNode, type NodeEdgeGateway } from './start-edge-on-node.js';

/*
 * The edge app on Node caps its connections as the node-server does (limits.max_connections):
 * the connections over the cap are closed at once, the admitted ones serve, one line on stderr says the
 * cap was reached, and a connection is admitted again once one closes.
 */

const cap = 5;
let upstream: RecordingUpstream;
let gateway: NodeEdgeGateway;

beforeAll(async () => {
  upstream = await startRecordingUpstream();
  gateway = await startEdgeOnNode({
    INFERGATE_API_KEYS: testApiKey,
    INFERGATE_CONFIG_JSON: JSON.stringify({
      upstreams: upstreamsServingEverything(upstream.url),
      limits: { max_connections: cap },
    }),
  });
});

afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

describe('limits.max_connections on the edge app on Node', () => {
  it('closes the connections over the cap at once, serves the admitted ones, and admits again once one closes', async () => {
    const written: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const admitted: IdleConnection[] = [];
      for (let index = 0; index < cap; index += 1)
        admitted.push(await openIdleConnection(gateway.baseUrl));
      expect((await admitted[0]?.get('/healthz'))?.status).toBe(200);
      const extra = await Promise.all(
        Array.from({ length: cap }, () => openIdleConnection(gateway.baseUrl)),
      );
      await Promise.all(extra.map((connection) => connection.closed));
      expect(admitted.filter((connection) => connection.isClosed())).toHaveLength(0);
      expect((await admitted[cap - 1]?.get('/healthz'))?.status).toBe(200);
      const warnings = written.filter((line) => line.includes('limits.max_connections reached'));
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0] as string)).toMatchObject({
        level: 'warn',
        maxConnections: cap,
      });

      admitted.shift()?.socket.destroy();
      let again: IdleConnection | undefined;
      for (const deadline = Date.now() + 10_000; again === undefined && Date.now() < deadline;) {
        const candidate = await openIdleConnection(gateway.baseUrl);
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (!candidate.isClosed()) again = candidate;
      }
      expect((await again?.get('/healthz'))?.status).toBe(200);
      for (const connection of [...admitted, again]) connection?.socket.destroy();
    } finally {
      stderr.mockRestore();
    }
  });
});
