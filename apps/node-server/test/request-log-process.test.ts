import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startScriptedUpstream,
  upstreamsServingEverything,
  type ScriptedUpstream,
} from '@infergate/testkit';
import { startGatewayProcess } from './start-gateway-process.js';

/*
 * The built CLI writes its request log asynchronously (createLineWriter), and operators rely on it
 * losing and tearing nothing: after a burst and a SIGTERM, stdout holds one whole JSON line per
 * request, then the shutdown line, and the process exits 0. The same when the log reader stops reading
 * for a while, so that writes meet a full non-blocking pipe (EAGAIN, short writes).
 */

const apiKey = 'ig-reqlog-0123456789abcdef0123456789abc';
const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
const requests = 600;
const concurrency = 48;

let upstream: ScriptedUpstream;

beforeAll(async () => {
  upstream = await startScriptedUpstream();
  upstream.setDefaultScript('ok:2:0');
});

afterAll(async () => {
  await upstream?.close();
});

describe('the request log of the built CLI', () => {
  it('holds one whole line per request of a burst when SIGTERM follows it at once', async () => {
    const gateway = await startGatewayProcess(
      { upstreams: upstreamsServingEverything(upstream.url), timeouts: { drain_delay_ms: 0 } },
      apiKey,
      {
        logLevel: 'info',
      },
    );
    const sent = await burst(gateway.baseUrl, 'burst', requests);
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
    expectOneLinePerRequest(gateway.stdout(), sent);
  });

  it('holds one whole line per request when the reader of stdout stops reading during the burst', async () => {
    const gateway = await startGatewayProcess(
      { upstreams: upstreamsServingEverything(upstream.url), timeouts: { drain_delay_ms: 0 } },
      apiKey,
      {
        logLevel: 'info',
      },
    );
    gateway.child.stdout?.pause();
    // Far more log lines than the pipe's 64 KiB holds: most of the burst is logged into a full pipe.
    const sent = await burst(gateway.baseUrl, 'stalled', 4_000);
    expect(gateway.stdout()).not.toContain('stalled-3999');
    gateway.child.stdout?.resume();
    gateway.child.kill('SIGTERM');
    expect(await gateway.exited).toBe(0);
    expectOneLinePerRequest(gateway.stdout(), sent);
  });
});

/** `count` chat requests, `concurrency` at a time, each with its own request id; the ids in the order answered. */
async function burst(baseUrl: string, prefix: string, count: number): Promise<string[]> {
  const sent: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const requestId = `${prefix}-${next++}`;
      const response = await fetch(`${baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { ...headers, 'x-request-id': requestId },
        body: JSON.stringify({
          model: 'alpha36-35b-a3b-instruct',
          messages: [{ role: 'user', content: 'Log me, not my words.' }],
        }),
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
      sent.push(requestId);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return sent;
}

function expectOneLinePerRequest(output: string, sent: readonly string[]): void {
  expect(output.endsWith('\n')).toBe(true);
  // Log lines are JSON objects, the banner's are text: a torn or interleaved log line fails to parse
  // here, or is missing from the count below.
  const lines = output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const logged = lines.filter(
    (line) => line.msg === 'request' && line.route === '/v1/chat/completions',
  );
  expect(logged).toHaveLength(sent.length);
  expect(new Set(logged.map((line) => line.requestId))).toEqual(new Set(sent));
  expect(logged.every((line) => line.status === 200)).toBe(true);
  expect(lines.some((line) => line.msg === 'shutting down' && line.signal === 'SIGTERM')).toBe(
    true,
  );
  expect(output).not.toContain('Log me, not my words.');
}
