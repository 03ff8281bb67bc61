import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedUpstream, type ScriptedUpstream } from '../start-scripted-upstream.js';
import { ContractClient, type StartedGateway } from './contract-client.js';

const messages = [{ role: 'user', content: 'Count slowly.' }];

/** Client aborts reach the upstream (docs/design.md: at once, streaming or not); the gateway keeps serving. */
export function describeAbortContract(
  start: (upstreamUrl: string) => Promise<StartedGateway>,
  earlyDisconnectUndetectable?: string,
): void {
  describe('client aborts reach the upstream', () => {
    let upstream: ScriptedUpstream;
    let gateway: StartedGateway;
    let client: ContractClient;

    beforeAll(async () => {
      upstream = await startScriptedUpstream();
      gateway = await start(upstream.url);
      client = new ContractClient(gateway);
    });

    afterAll(async () => {
      await gateway?.close();
      await upstream?.close();
    });

    it('aborts the upstream stream when the client disconnects mid-stream', async () => {
      upstream.setDefaultScript('ok:200:50');
      upstream.clear();
      const controller = new AbortController();
      const response = await client.post(
        '/v1/chat/completions',
        { model: 'alpha36-35b-a3b-instruct', messages, stream: true },
        { signal: controller.signal },
      );
      expect(response.status).toBe(200);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      const abortedAt = Date.now();
      controller.abort();
      await reader.cancel().catch(() => undefined);
      const seen = await upstream.waitForRequest(
        (request) => request.path === '/v1/chat/completions',
      );
      await seen.closed;
      expect(seen.aborted).toBe(true);
      // Wide bound: the stream would otherwise have run for 10 s.
      expect((seen.closedAt as number) - abortedAt).toBeLessThan(5_000);
    });

    const earlyDisconnectTest = earlyDisconnectUndetectable === undefined ? it : it.fails;
    const earlyDisconnectTitle =
      earlyDisconnectUndetectable === undefined
        ? ''
        : ` (expected to fail here: ${earlyDisconnectUndetectable})`;
    earlyDisconnectTest(
      `aborts the upstream request when the client disconnects before any answer${earlyDisconnectTitle}`,
      { timeout: 15_000 },
      async () => {
        upstream.setDefaultScript('stall-before-headers');
        upstream.clear();
        const controller = new AbortController();
        const pending = client
          .post(
            '/v1/chat/completions',
            { model: 'alpha36-35b-a3b-instruct', messages },
            { signal: controller.signal },
          )
          .catch((error: unknown) => error);
        const seen = await upstream.waitForRequest(
          (request) => request.path === '/v1/chat/completions',
        );
        controller.abort();
        expect(await pending).toBeInstanceOf(Error);
        // Bounded, so that a runtime which never notices fails here rather than hanging the suite.
        await Promise.race([seen.closed, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        expect(seen.aborted).toBe(true);
      },
    );

    it('keeps serving afterwards', async () => {
      upstream.setDefaultScript('ok:3:0');
      const reply = await client.postJson('/v1/chat/completions', {
        model: 'alpha36-35b-a3b-instruct',
        messages,
      });
      expect(reply.status, reply.text).toBe(200);
      const streamed = await client.post('/v1/chat/completions', {
        model: 'alpha36-35b-a3b-instruct',
        messages,
        stream: true,
      });
      expect(streamed.status).toBe(200);
      expect(await streamed.text()).toContain('data: [DONE]');
    });
  });
}
