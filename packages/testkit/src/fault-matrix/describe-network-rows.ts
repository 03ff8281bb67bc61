import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractClient, asRecord } from '../contract/contract-client.js';
import { expectNativeError } from '../contract/expect-envelopes.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../start-scripted-upstream.js';
import { upstreamsServingEverything } from '../upstreams-serving-everything.js';
import { readTimed } from './describe-upstream-rows.js';
import type { FaultMatrixTarget } from './fault-matrix-target.js';
import {
  createNetworkNamespace,
  networkNamespaceUnavailable,
  type NetworkNamespace,
} from './network-namespace.js';
import { recordFigure } from './record-figure.js';

const model = 'alpha36-35b-a3b-instruct';
const messages = [{ role: 'user', content: 'Go.' }];
const streamPort = 19_000;
const blackholePort = 19_001;

// An SSE model server for inside the namespace: a chunk every 100 ms for as long as the client stays.
const streamingStub = `
const http = require('node:http');
http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    let index = 0;
    const timer = setInterval(() => {
      const chunk = { id: 'chatcmpl-ns', object: 'chat.completion.chunk', created: 1, model: 'ns', choices: [{ index: 0, delta: { content: 'word' + index++ + ' ' }, logprobs: null, finish_reason: null }] };
      response.write('data: ' + JSON.stringify(chunk) + '\\n\\n');
    }, 100);
    response.on('close', () => clearInterval(timer));
  });
}).listen(${streamPort}, process.argv[1] || '0.0.0.0', () => console.log('ready'));
`;

/**
 * fault-matrix rows 11 (connect blackhole) and 13 (packets dropped mid-stream) with nftables in a
 * network namespace. They need Linux, root, `ip` and `nft` (networkNamespaceUnavailable). Where one is
 * missing they are skipped, saying why in the output and in the suite's name; with CI=true (CI has them
 * all) they are never skipped: they run, and fail naming what is missing.
 */
export function describeNetworkRows(target: FaultMatrixTarget): void {
  const unavailable = networkNamespaceUnavailable();
  const skipped = unavailable !== undefined && process.env.CI !== 'true';
  if (skipped)
    process.stdout.write(
      `[fault-matrix] rows 11 (blackhole) and 13 (nftables drop) skipped for ${target.name}: ${unavailable} (CI=true runs them)\n`,
    );

  const name = `fault matrix, network faults in a namespace (root, ip, nft): ${target.name}`;
  describe.skipIf(skipped)(skipped ? `${name} (skipped: ${unavailable})` : name, () => {
    let namespace: NetworkNamespace;
    let upstream: ScriptedUpstream;

    beforeAll(async () => {
      if (unavailable !== undefined)
        throw new Error(
          `fault-matrix rows 11 and 13 must run with CI=true, and cannot here: ${unavailable}`,
        );
      namespace = createNetworkNamespace();
      namespace.nft('add', 'table', 'inet', 'igw');
      namespace.nft('add', 'chain', 'inet', 'igw', 'in', '{ type filter hook input priority 0; }');
      namespace.nft(
        'add',
        'chain',
        'inet',
        'igw',
        'out',
        '{ type filter hook output priority 0; }',
      );
      // Connect blackhole: SYNs to this port vanish, so a connect neither succeeds nor is refused.
      namespace.nft(
        'add',
        'rule',
        'inet',
        'igw',
        'in',
        'tcp',
        'dport',
        String(blackholePort),
        'drop',
      );
      await namespace.spawnNode(streamingStub);
      upstream = await startScriptedUpstream();
    }, 30_000);

    afterAll(async () => {
      namespace?.remove();
      await upstream?.close();
    });

    const known = target.knownFailures?.[11];
    if (known)
      process.stdout.write(
        `[fault-matrix] row 11 ${target.name}: known failure, run as expected to fail: ${known}\n`,
      );
    (known ? it.fails : it)(
      'row 11: a blackholed upstream is 504 at the connect limit, and a second endpoint is tried once',
      async () => {
        const connectMs = 1_000;
        const blackhole = upstreamsServingEverything(
          `http://${namespace.address}:${blackholePort}`,
        );
        const single = await target.start({
          upstreams: blackhole,
          timeouts: { connect_ms: connectMs },
          retries: { attempts: 0 },
        });
        let took = 0;
        try {
          const startedAt = performance.now();
          expectNativeError(
            await new ContractClient(single).postJson('/v1/chat/completions', { model, messages }),
            504,
          );
          took = performance.now() - startedAt;
        } finally {
          await single.close();
        }
        const both = await target.start({
          upstreams: [
            ...blackhole.map((entry) => ({ ...entry, name: `${entry.name}-blackhole` })),
            ...upstreamsServingEverything(upstream.url),
          ],
          timeouts: { connect_ms: connectMs },
        });
        const served: number[] = [];
        try {
          const client = new ContractClient(both);
          for (let index = 0; index < 6; index += 1) {
            const { requestId, headers } = upstream.scripted('ok:2:0');
            const startedAt = performance.now();
            const reply = await client.postJson(
              '/v1/chat/completions',
              { model, messages },
              { headers },
            );
            served.push(performance.now() - startedAt);
            expect(reply.status, reply.text).toBe(200);
            expect(
              upstream.requests.filter((request) => request.headers['x-request-id'] === requestId),
            ).toHaveLength(1);
          }
        } finally {
          await both.close();
        }
        recordFigure(
          11,
          target.name,
          `blackhole: 504 after ${Math.round(took)} ms (connect limit ${connectMs} ms); blackhole + live endpoint: 6/6 served, live tried once each, slowest ${Math.round(Math.max(...served))} ms`,
          'timeout at limit +- 1 s (test limit 1 s)',
        );
        expect(Math.abs(took - connectMs)).toBeLessThanOrEqual(1_000);
        // A known failure waits on the runtime's own connect limit: 5 s is enough to see it fail.
      },
      known ? 5_000 : 30_000,
    );

    it('row 13: a stream whose packets are dropped mid-way ends with upstream_timeout at the idle limit, keepalive comments notwithstanding', async () => {
      const idleMs = 1_000;
      const gateway = await target.start({
        upstreams: upstreamsServingEverything(`http://${namespace.address}:${streamPort}`),
        timeouts: { idle_ms: idleMs, keepalive_ms: 200 },
      });
      try {
        const response = await new ContractClient(gateway).post('/v1/chat/completions', {
          model,
          messages,
          stream: true,
        });
        expect(response.status).toBe(200);
        const reading = readTimed(response);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        // Silence from now on: no FIN, no RST, the stub's packets just vanish.
        namespace.nft(
          'add',
          'rule',
          'inet',
          'igw',
          'out',
          'tcp',
          'sport',
          String(streamPort),
          'drop',
        );
        const droppedAt = performance.now();
        const read = await reading;
        const endedAfter = read.endedAt - droppedAt;
        expect(read.events.at(-1)?.data).toBe('[DONE]');
        const error = asRecord(asRecord(JSON.parse(read.events.at(-2)?.data ?? '{}')).error);
        expect(error.code).toBe('upstream_timeout');
        expect(read.comments).toBeGreaterThanOrEqual(2);
        recordFigure(
          13,
          `${target.name} (nftables drop)`,
          `terminal upstream_timeout ${Math.round(endedAfter)} ms after the drop rule, ${read.comments} keepalive comments, ${read.events.length - 2} chunks before (idle ${idleMs} ms)`,
          'idle limit + <= 1 s; keepalive comments do not reset it',
        );
        expect(endedAfter).toBeLessThanOrEqual(idleMs + 1_000);
        expect(endedAfter).toBeGreaterThanOrEqual(idleMs - 150);
      } finally {
        await gateway.close();
      }
    }, 30_000);
  });
}
