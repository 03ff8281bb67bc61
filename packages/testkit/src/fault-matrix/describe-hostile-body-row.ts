import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '@infergate/core';
import { ContractClient, toJsonReply, type StartedGateway } from '../contract/contract-client.js';
import { expectErrorEnvelope } from '../contract/expect-envelopes.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../start-scripted-upstream.js';
import { upstreamsServingEverything } from '../upstreams-serving-everything.js';
import type { FaultMatrixTarget } from './fault-matrix-target.js';
import { fixedHostileBodies, hostileBody, type HostileBody } from './hostile-body.js';
import { recordFigure } from './record-figure.js';
import { validBodies } from './route-bodies.js';
import { settledMemoryMb, signedMb } from './settled-memory.js';

const fuzzRuns = Number(process.env.FAULT_MATRIX_FUZZ_RUNS ?? 1000);
const allowedStatuses = [400, 404, 413, 415, 422];

const concretePath = (path: string): string => path.replaceAll(/\{[^}]+\}/g, 'x');

async function send(gateway: StartedGateway, path: string, body: HostileBody): Promise<Response> {
  return fetch(`${gateway.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': body.contentType },
    body: body.body,
  });
}

async function expectEnvelope(
  response: Response,
  path: string,
  statuses: readonly number[],
): Promise<void> {
  const reply = await toJsonReply(response);
  expect(statuses, `${path}: ${reply.status} ${reply.text.slice(0, 300)}`).toContain(reply.status);
  expectErrorEnvelope(reply, path, reply.status);
}

/**
 * fault-matrix row 1 against one app: hostile bodies (fast-check, 1,000 runs per POST route) answer
 * only error envelopes, never reach the upstream, and leave live memory flat. It bounds no duration,
 * so it runs beside other test files; the other input rows are describeInputRows.
 */
export function describeHostileBodyRow(target: FaultMatrixTarget): void {
  describe(`fault matrix, hostile bodies: ${target.name}`, () => {
    let upstream: ScriptedUpstream;
    let gateway: StartedGateway;
    let client: ContractClient;

    beforeAll(async () => {
      upstream = await startScriptedUpstream();
      upstream.setDefaultScript('ok:1:0');
      gateway = await target.start({ upstreams: upstreamsServingEverything(upstream.url) });
      client = new ContractClient(gateway);
    });

    afterAll(async () => {
      await gateway?.close();
      await upstream?.close();
    });

    it('row 1: hostile bodies on every POST route answer only 400/404/413/415/422 envelopes, never reach the upstream, and leave memory flat', async () => {
      const postRoutes = routeTable.filter((route) => route.method === 'POST');
      // Warm-up: every route and the deep bodies once, so the figure compares steady states, not the
      // first allocation of parser stacks and pools.
      for (const route of postRoutes)
        for (const body of fixedHostileBodies())
          await send(gateway, concretePath(route.path), body).then((response) =>
            response.arrayBuffer(),
          );
      const before = await settledMemoryMb();
      let requests = 0;
      const startedAt = performance.now();
      for (const route of postRoutes) {
        const path = concretePath(route.path);
        const valid = validBodies[path] ?? { model: 'gamma-m3' };
        const calls = upstream.requests.length;
        for (const body of fixedHostileBodies()) {
          await expectEnvelope(await send(gateway, path, body), path, allowedStatuses);
          requests += 1;
        }
        const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
        try {
          await fc.assert(
            fc.asyncProperty(hostileBody(valid), async (body) => {
              requests += 1;
              await expectEnvelope(await send(gateway, path, body), path, allowedStatuses);
            }),
            { numRuns: fuzzRuns, seed },
          );
        } catch (error) {
          process.stderr.write(`row 1 failed on ${path}; replay with FC_SEED=${seed}\n`);
          throw error;
        }
        expect(upstream.requests.length, `${path} reached the upstream`).toBe(calls);
      }
      expect((await client.request('GET', '/healthz', { anonymous: true })).status).toBe(200);
      // Bounded on live memory (heap + buffers): this process's RSS also holds the test runner and what
      // the allocator keeps after bursts, and moved between runs by more than a leak here would.
      const after = await settledMemoryMb();
      const grown = after.live - before.live;
      recordFigure(
        1,
        target.name,
        `${requests} requests over ${postRoutes.length} POST routes in ${Math.round(performance.now() - startedAt)} ms, 0 5xx, 0 upstream calls, settled live memory ${signedMb(grown)} MB (RSS ${signedMb(after.rss - before.rss)} MB)`,
        '0 5xx, /healthz 200, memory <= +50 MB',
      );
      expect(grown).toBeLessThanOrEqual(50);
    }, 600_000);
  });
}
