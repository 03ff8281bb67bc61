import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedUpstream,
  upstreamsServingEverything,
  type ScriptedUpstream,
} from '@infergate/testkit';
import { startGatewayProcess } from './start-gateway-process.js';

/*
 * A drain a load balancer can follow. On SIGTERM the built CLI turns /readyz to 503 at once
 * and goes on serving everything else for timeouts.drain_delay_ms, so a Kubernetes Service or a load
 * balancer polling /readyz takes it out of its pool before the listener closes; then the graceful
 * shutdown runs as before (fault-matrix-sigterm.test.ts) and the process exits 0.
 */

const apiKey = 'ig-drain-0123456789abcdef0123456789abcd';
const drainDelayMs = 2_000;
const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };

let upstream: ScriptedUpstream;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  upstream.setDefaultScript('ok:2:0');
});

afterAll(async () => {
  await upstream?.close();
});

async function statusOf(url: string, init?: RequestInit): Promise<number | 'refused'> {
  try {
    const response = await fetch(url, init);
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 'refused';
  }
}

describe('drain on SIGTERM (timeouts.drain_delay_ms)', () => {
  it('/readyz answers 503 at once while chat and models are still served, then the shutdown runs and the process exits 0', async () => {
    const gateway = await startGatewayProcess(
      {
        upstreams: upstreamsServingEverything(upstream.url),
        timeouts: { drain_delay_ms: drainDelayMs, shutdown_grace_ms: 1_000 },
      },
      apiKey,
    );
    const { baseUrl, child, exited } = gateway;
    expect(await statusOf(`${baseUrl}/readyz`)).toBe(200);

    const signalledAt = performance.now();
    child.kill('SIGTERM');
    // The signal is delivered asynchronously: the first probes may still see the replica ready.
    let readyzProbes = 0;
    let readyz: number | 'refused' = 200;
    while (readyz === 200 && readyzProbes < 100) {
      readyzProbes += 1;
      readyz = await statusOf(`${baseUrl}/readyz`);
    }
    const notReadyAfterMs = performance.now() - signalledAt;
    expect(readyz).toBe(503);

    // Still inside the drain: the listener accepts new connections and serves as usual, telling
    // keep-alive clients to reconnect elsewhere.
    const models = await fetch(`${baseUrl}/v1/models`, { headers });
    expect(models.status).toBe(200);
    expect(models.headers.get('connection')).toBe('close');
    await models.arrayBuffer();
    const chat = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        model: 'alpha36-35b-a3b-instruct',
        messages: [{ role: 'user', content: 'Still there?' }],
      }),
    });
    expect(chat.status).toBe(200);
    expect(((await chat.json()) as { object: string }).object).toBe('chat.completion');
    expect(await statusOf(`${baseUrl}/healthz`)).toBe(200);
    // 200s, not 503 shutting_down nor a refused connection: they were served inside the drain.
    const servedUntilMs = performance.now() - signalledAt;

    expect(await exited).toBe(0);
    const exitedAfterMs = performance.now() - signalledAt;
    // Timers never fire early: the listener stayed open for the whole drain delay.
    expect(exitedAfterMs).toBeGreaterThanOrEqual(drainDelayMs);
    expect(await statusOf(`${baseUrl}/v1/models`, { headers })).toBe('refused');
    process.stdout.write(
      `drain: /readyz 503 after ${Math.round(notReadyAfterMs)} ms (${readyzProbes} probes), served until ${Math.round(servedUntilMs)} ms, exit 0 after ${Math.round(exitedAfterMs)} ms (drain ${drainDelayMs} ms)\n`,
    );
  }, 30_000);

  it('SIGINT (a person at a terminal) skips the drain delay and shuts down at once', async () => {
    const gateway = await startGatewayProcess(
      {
        upstreams: upstreamsServingEverything(upstream.url),
        timeouts: { drain_delay_ms: 600_000, shutdown_grace_ms: 1_000 },
      },
      apiKey,
    );
    gateway.child.kill('SIGINT');
    // Ten minutes of drain would outlast the test's timeout.
    expect(await gateway.exited).toBe(0);
  }, 30_000);

  it('takes one Ctrl-C delivered twice at once (terminal and package manager) as one; a later second signal exits 1 at once', async () => {
    const config = {
      upstreams: upstreamsServingEverything(upstream.url),
      timeouts: { drain_delay_ms: 600_000, shutdown_grace_ms: 1_000 },
    };
    const twice = await startGatewayProcess(config, apiKey);
    twice.child.kill('SIGINT');
    twice.child.kill('SIGINT');
    expect(await twice.exited).toBe(0);

    const impatient = await startGatewayProcess(config, apiKey);
    // SIGTERM starts the ten-minute drain; an operator who signals again a second later will not wait.
    impatient.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    impatient.child.kill('SIGTERM');
    expect(await impatient.exited).toBe(1);
  }, 30_000);
});
