import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedUpstream,
  upstreamsServingEverything,
  type ScriptedUpstream,
} from '@infergate/testkit';
import { freeLoopbackPort } from './free-loopback-port.js';
import { startGatewayProcess, type GatewayProcess } from './start-gateway-process.js';
import { startNginx, type Nginx } from './start-nginx.js';
import { startRedisServer, type RedisServer } from './start-redis-server.js';
import { SteadyLoad, type Outcome } from './steady-load.js';

/*
 * Replicas behind a real load balancer restart without a failed request. Debian's nginx,
 * with the repository's location rules (deploy/nginx/infergate-locations.conf), in front of three
 * node-server processes (the built CLI) sharing one redis-server. A client sends chat, streamed chat
 * and embeddings the whole time. Every bound is a count of requests, not a duration.
 */

const loadKey = 'ig-load-0123456789abcdef0123456789abcdef';
const limitedKey = 'ig-limited-0123456789abcdef0123456789ab';
const concurrencyLimit = 3;
const workers = 6;
// Requests that must end between two steps: traffic flows while each replica is away and back.
const requestsBetweenSteps = 24;

let redis: RedisServer;
let upstream: ScriptedUpstream;
let nginx: Nginx;
let load: SteadyLoad | undefined;
const ports: number[] = [];
const replicas: GatewayProcess[] = [];

function startReplica(port: number): Promise<GatewayProcess> {
  return startGatewayProcess(
    {
      upstreams: upstreamsServingEverything(upstream.url),
      keys: [
        { key: loadKey, name: 'load' },
        { key: limitedKey, name: 'limited', limits: { concurrent_requests: concurrencyLimit } },
      ],
      // A generous Redis budget: on a loaded machine a replica that waits longer than budget_ms for
      // Redis decides alone with its share of the limit (by design), which this test is not about.
      redis: { url: redis.url, replicas: 3, budget_ms: 500 },
      // The drain runs (answers close their connections) but nginx does not poll /readyz: it retries
      // refused connections and 503 shutting_down instead, so the delay can be short here.
      timeouts: { drain_delay_ms: 300, shutdown_grace_ms: 5_000 },
    },
    undefined,
    { port },
  );
}

function summary(outcomes: readonly Outcome[]): string {
  const byKind = (kind: Outcome['kind']) =>
    outcomes.filter((outcome) => outcome.kind === kind).length;
  return `${outcomes.length} requests (chat ${byKind('chat')}, streams ${byKind('stream')}, embeddings ${byKind('embeddings')}), ${outcomes.filter((outcome) => !outcome.ok).length} failed`;
}

beforeAll(async () => {
  redis = await startRedisServer();
  upstream = await startScriptedUpstream();
  // Each answer takes 10 x 30 ms: restarts always find requests and streams running.
  upstream.setDefaultScript('ok:10:30');
  for (let index = 0; index < 3; index += 1) ports.push(await freeLoopbackPort());
  for (const port of ports) replicas.push(await startReplica(port));
  nginx = await startNginx({ upstreamPorts: ports, maxFails: 1, failTimeoutSeconds: 2 });
}, 60_000);

afterAll(async () => {
  await load?.stop();
  await nginx?.stop();
  await Promise.allSettled(replicas.map((replica) => replica.stop()));
  await upstream?.close();
  await redis?.stop();
}, 30_000);

describe('three replicas behind nginx', () => {
  it('restarted one after another under a steady mix of chat, streams and embeddings: zero failed requests, every stream ends with [DONE]', async () => {
    load = new SteadyLoad(nginx.baseUrl, loadKey, workers);
    await load.waitForMore(requestsBetweenSteps);
    for (let index = 0; index < replicas.length; index += 1) {
      const leaving = replicas[index] as GatewayProcess;
      expect(await leaving.stop()).toBe(0);
      // While it is away, the others serve.
      await load.waitForMore(requestsBetweenSteps / 2);
      replicas[index] = await startReplica(ports[index] as number);
      await load.waitForMore(requestsBetweenSteps);
    }
    const outcomes = [...load.outcomes];
    const retried = nginx.accessLog().filter((line) => line.upstreams.length > 1);
    process.stdout.write(
      `rolling restart: ${summary(outcomes)}; nginx passed ${retried.length} requests to a second replica (${retried.map((line) => line.upstreamStatuses.join('>')).join(', ')})\n`,
    );
    expect(outcomes.filter((outcome) => !outcome.ok)).toEqual([]);
    expect(outcomes.filter((outcome) => outcome.kind === 'stream').length).toBeGreaterThanOrEqual(
      requestsBetweenSteps,
    );
    // Every restarted replica served again.
    const served = new Set(nginx.accessLog().map((line) => line.upstreams.at(-1)));
    for (const port of ports) expect(served.has(`127.0.0.1:${port}`)).toBe(true);
  }, 120_000);

  it('one replica SIGKILLed: only requests in flight when it died may fail, and the key limits stay shared by the two left', async () => {
    const running = load ?? new SteadyLoad(nginx.baseUrl, loadKey, workers);
    load = running;
    await running.waitForMore(requestsBetweenSteps);
    const before = running.outcomes.length;
    const victim = replicas[1] as GatewayProcess;
    const inFlightAtKill = running.inFlight.size;
    const killedAt = performance.now();
    victim.child.kill('SIGKILL');
    await victim.exited;
    await running.waitForMore(requestsBetweenSteps * 2);
    await running.stop();
    load = undefined;
    const afterKill = running.outcomes.slice(before);
    const failed = afterKill.filter((outcome) => !outcome.ok);
    process.stdout.write(
      `SIGKILL: ${summary(afterKill)} (${inFlightAtKill} in flight through nginx at the kill): ${failed.map((outcome) => `${outcome.kind}: ${outcome.detail ?? ''}`).join(' | ')}\n`,
    );
    expect(failed.length).toBeLessThanOrEqual(inFlightAtKill);
    // Every failure was already running when the replica died; nothing sent later failed.
    expect(failed.filter((outcome) => outcome.startedAt >= killedAt)).toEqual([]);
    expect(
      afterKill.filter((outcome) => outcome.startedAt >= killedAt && outcome.ok).length,
    ).toBeGreaterThanOrEqual(requestsBetweenSteps);

    // A key allowed 3 requests at once sends 12 long streams at once through nginx, which spreads them
    // over the two replicas left: counted alone, each would admit 3.
    const streams = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const { headers } = upstream.scripted('ok:60:50');
        const response = await fetch(`${nginx.baseUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: {
            ...headers,
            authorization: `Bearer ${limitedKey}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({
            model: 'alpha36-35b-a3b-instruct',
            messages: [{ role: 'user', content: 'Limited.' }],
            stream: true,
          }),
        });
        return { status: response.status, text: await response.text() };
      }),
    );
    const admitted = streams.filter((stream) => stream.status === 200);
    const servedBy = new Set(
      nginx
        .accessLog()
        .filter((line) => line.status === 200 || line.status === 429)
        .slice(-12)
        .map((line) => line.upstreams.at(-1)),
    );
    process.stdout.write(
      `shared limit: ${admitted.length} of 12 concurrent streams admitted for a limit of ${concurrencyLimit} across ${servedBy.size} replicas; the others ${[...new Set(streams.filter((stream) => stream.status !== 200).map((stream) => stream.status))].join(', ')}\n`,
    );
    expect(admitted.length).toBeGreaterThanOrEqual(1);
    expect(admitted.length).toBeLessThanOrEqual(concurrencyLimit);
    expect(streams.every((stream) => stream.status === 200 || stream.status === 429)).toBe(true);
    expect(admitted.every((stream) => stream.text.trimEnd().endsWith('data: [DONE]'))).toBe(true);
    expect(servedBy.size).toBe(2);
  }, 120_000);
});
