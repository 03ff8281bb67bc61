import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedUpstream, type ScriptedUpstream } from '@infergate/testkit';
import { freeLoopbackPort } from './free-loopback-port.js';
import { parsePrometheusText } from './parse-prometheus-text.js';
import { metricValue } from './read-metrics.js';
import { startGatewayProcess, type GatewayProcess } from './start-gateway-process.js';

/*
 * A dead model server must not take the replicas out of their load balancer. Two replicas of the built
 * CLI, one upstream on a closed port serving the reranker and a live one serving chat; while clients
 * call both, a kubelet-like loop probes /readyz on each replica, and every probe and every chat must be
 * 200. The dead upstream shows where operators look: GET /upstreamz and infergate_upstream_up.
 */

const apiKey = 'ig-readiness-0123456789abcdef01234567';
const operatorKey = 'ig-readiness-ops-0123456789abcdef0123';
const chatModel = 'alpha36-35b-a3b-instruct';
const rerankModel = 'gamma-reranker-v2-m3';
const rounds = 15;
const probeEveryMs = 100;

let live: ScriptedUpstream;
let replicas: GatewayProcess[] = [];

beforeAll(async () => {
  live = await startScriptedUpstream();
  live.setDefaultScript('ok:2:0');
  const deadPort = await freeLoopbackPort();
  const file = {
    upstreams: [
      {
        name: 'dead-reranker',
        url: `http://127.0.0.1:${deadPort}`,
        protocol: 'cohere',
        models: { [rerankModel]: 'reranker' },
      },
      { name: 'live-chat', url: live.url, protocol: 'openai', models: { [chatModel]: 'chat' } },
    ],
    keys: [
      { key: apiKey, name: 'team' },
      { key: operatorKey, name: 'ops', operator: true },
    ],
    timeouts: { shutdown_grace_ms: 500, drain_delay_ms: 0 },
  };
  replicas = await Promise.all([startGatewayProcess(file), startGatewayProcess(file)]);
});

afterAll(async () => {
  await Promise.allSettled(replicas.map((replica) => replica.stop()));
  await live?.close();
});

async function post(baseUrl: string, path: string, body: unknown): Promise<number> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

async function readyz(baseUrl: string): Promise<number> {
  const response = await fetch(`${baseUrl}/readyz`);
  await response.arrayBuffer();
  return response.status;
}

function tally(statuses: readonly number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('a dead upstream behind two replicas (Kubernetes-style)', () => {
  it('keeps /readyz 200 on both replicas and chat answering, and shows the dead upstream to operators', async () => {
    const probes: number[] = [];
    const chats: number[] = [];
    const reranks: number[] = [];
    const inService: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      for (const { baseUrl } of replicas) {
        reranks.push(
          await post(baseUrl, '/compat/v2/rerank', {
            model: rerankModel,
            query: 'q',
            documents: ['a', 'b'],
          }),
        );
        chats.push(
          await post(baseUrl, '/v1/chat/completions', {
            model: chatModel,
            messages: [{ role: 'user', content: 'hi' }],
          }),
        );
      }
      // The kubelet's readiness probe on each replica; the Service keeps those that answered 200.
      const round_ = await Promise.all(replicas.map(({ baseUrl }) => readyz(baseUrl)));
      probes.push(...round_);
      inService.push(round_.filter((status) => status === 200).length);
      await new Promise((resolve) => setTimeout(resolve, probeEveryMs));
    }
    process.stdout.write(
      `dead upstream, 2 replicas, ${rounds} rounds: /readyz ${JSON.stringify(tally(probes))}, replicas in service per round min ${Math.min(...inService)}, chat ${JSON.stringify(tally(chats))}, rerank ${JSON.stringify(tally(reranks))}\n`,
    );
    expect(tally(reranks)).toEqual({ 502: rounds * replicas.length });
    expect(tally(chats)).toEqual({ 200: rounds * replicas.length });
    expect(tally(probes)).toEqual({ 200: rounds * replicas.length });

    for (const { baseUrl } of replicas) {
      const health = await fetch(`${baseUrl}/upstreamz`, {
        headers: { authorization: `Bearer ${operatorKey}` },
      });
      expect(health.status).toBe(200);
      const { data } = (await health.json()) as {
        data: { upstream: string; state: string; models: string[]; consecutive_failures: number }[];
      };
      expect(data.map((entry) => [entry.upstream, entry.state, entry.models])).toEqual([
        ['dead-reranker', 'unreachable', [rerankModel]],
        ['live-chat', 'up', [chatModel]],
      ]);
      expect(data[0]?.consecutive_failures).toBeGreaterThan(0);
      // The body names upstreams, never where they are.
      expect(JSON.stringify(data)).not.toContain('127.0.0.1');

      const metrics = await fetch(`${baseUrl}/metrics`, {
        headers: { authorization: `Bearer ${operatorKey}` },
      });
      const samples = parsePrometheusText(await metrics.text());
      expect(metricValue(samples, 'infergate_upstream_up', { upstream: 'dead-reranker' })).toBe(0);
      expect(metricValue(samples, 'infergate_upstream_up', { upstream: 'live-chat' })).toBe(1);
      expect(
        metricValue(samples, 'infergate_upstream_errors_total', {
          kind: 'refused',
          upstream: 'dead-reranker',
          model: rerankModel,
        }),
      ).toBeGreaterThan(0);
    }
  });
});
