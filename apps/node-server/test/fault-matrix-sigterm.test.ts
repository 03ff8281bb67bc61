import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContractClient,
  readTimed,
  recordFigure,
  startScriptedUpstream,
  upstreamsServingEverything,
  type ScriptedUpstream,
} from '@infergate/testkit';
import { startGatewayProcess } from './start-gateway-process.js';

// Row 24's process part: the built CLI (dist/main.js, as `pnpm start` runs it) drains on SIGTERM and exits 0.
// No drain delay here: this row is about the grace; drain-on-sigterm.test.ts covers the delay before it.
const apiKey = 'ig-sigterm-0123456789abcdef0123456789ab';
const graceMs = 2_000;

describe('fault matrix row 24, the process: node-server', () => {
  let upstream: ScriptedUpstream;

  beforeAll(async () => {
    upstream = await startScriptedUpstream();
    upstream.setDefaultScript('ok:100:50');
  });

  afterAll(async () => {
    await upstream?.close();
  });

  it('SIGTERM with 100 running streams: every stream ends in-protocol and the process exits 0 within the grace', async () => {
    const gateway = await startGatewayProcess(
      {
        upstreams: upstreamsServingEverything(upstream.url),
        timeouts: { shutdown_grace_ms: graceMs, drain_delay_ms: 0 },
      },
      apiKey,
    );
    const { baseUrl, child, exited } = gateway;
    const client = new ContractClient({ baseUrl, apiKey, close: async () => undefined });
    const responses = await Promise.all(
      Array.from({ length: 100 }, () =>
        client.post('/v1/chat/completions', {
          model: 'alpha36-35b-a3b-instruct',
          messages: [{ role: 'user', content: 'Go.' }],
          stream: true,
        }),
      ),
    );
    const reads = responses.map((response) => readTimed(response).catch(() => undefined));
    const startedAt = performance.now();
    child.kill('SIGTERM');
    const code = await exited;
    const tookMs = performance.now() - startedAt;
    const results = await Promise.all(reads);
    const ended = results.filter((result) => result?.events.at(-1)?.data === '[DONE]').length;
    recordFigure(
      24,
      'node-server (process)',
      `SIGTERM with 100 streams: exit ${code} after ${Math.round(tookMs)} ms (grace ${graceMs} ms), ${ended}/100 streams ended in-protocol`,
      'within the drain deadline (test 2 s); exit 0',
    );
    expect(code).toBe(0);
    expect(ended).toBe(100);
    expect(tookMs).toBeLessThanOrEqual(graceMs + 1_000);
  }, 30_000);
});
