import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractClient, toJsonReply } from '../contract/contract-client.js';
import { expectCompatError, expectNativeError } from '../contract/expect-envelopes.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../start-scripted-upstream.js';
import { upstreamsServingEverything } from '../upstreams-serving-everything.js';
import { readTimed } from './describe-upstream-rows.js';
import type { FaultMatrixTarget } from './fault-matrix-target.js';
import { quantile, recordFigure } from './record-figure.js';
import { imageFields, validBodies } from './route-bodies.js';
import { secretForms } from './secret-forms.js';

const model = 'alpha36-35b-a3b-instruct';
const messages = [{ role: 'user', content: 'Go.' }];
const canaryUpstreamKey = 'sk-upstream-canary-7f3a9c1e5b2d8f4a6c0e';

/** A TCP server that only counts connections: what an SSRF would reach. */
async function startCanary(
  host: string,
): Promise<{ server: Server; port: number; connections: () => number } | undefined> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, resolve);
    });
  } catch {
    return undefined;
  }
  return {
    server,
    port: (server.address() as { port: number }).port,
    connections: () => connections,
  };
}

/**
 * fault-matrix rows 7, 8, 22 and 24 against one app: keys never logged or echoed, image URLs never
 * fetched, the admission cap under twice its load, and graceful shutdown with 100 running streams.
 */
export function describeSafetyRows(target: FaultMatrixTarget): void {
  describe(`fault matrix, keys, SSRF, overload and shutdown: ${target.name}`, () => {
    let upstream: ScriptedUpstream;

    beforeAll(async () => {
      upstream = await startScriptedUpstream();
    });

    afterAll(async () => {
      await upstream?.close();
    });

    const scriptedHeaders = (script: string): Record<string, string> =>
      upstream.scripted(script).headers;

    it('row 7: no log line and no response holds the client key or the upstream key (whole, first 12 characters, base64)', async () => {
      const upstreams = upstreamsServingEverything(upstream.url).map((entry) => ({
        ...entry,
        api_key: canaryUpstreamKey,
      }));
      const file = {
        upstreams,
        timeouts: { first_event_ms: 1_000, headers_ms: 1_000, idle_ms: 500 },
      };
      const started = target.startWithLogs
        ? await target.startWithLogs(file)
        : { gateway: await target.start(file), logs: () => '' };
      const { gateway } = started;
      const client = new ContractClient(gateway);
      const wrongKey = 'ig-canary-client-wrong-4b1d9e7c2a5f8e3d';
      const seen: string[] = [];
      const keep = async (response: Response): Promise<void> => {
        seen.push(JSON.stringify([...response.headers]), await response.text());
      };
      try {
        for (const script of [
          'echo-auth',
          'status:400',
          'status:500',
          'status:429',
          'status:502:html',
          'ok:3:0',
          'reset-after:2',
          'stall-after:1',
          'redirect',
        ]) {
          for (const stream of [false, true])
            await keep(
              await client.post(
                '/v1/chat/completions',
                { model, messages, stream },
                { headers: scriptedHeaders(script) },
              ),
            );
        }
        for (const [path, body] of Object.entries(validBodies)) {
          await keep(await client.post(path, body, { headers: scriptedHeaders('echo-auth') }));
          await keep(
            await client.post(path, body, {
              headers: { ...scriptedHeaders('ok:1:0'), authorization: `Bearer ${wrongKey}` },
            }),
          );
          await keep(await client.post(path, { ...body, extra_field: 1 }));
        }
        await keep(await client.request('GET', '/v1/models'));
        await keep(
          await client.request('GET', '/v1/models', {
            headers: {
              authorization: `Basic ${Buffer.from(`user:${wrongKey}`).toString('base64')}`,
            },
          }),
        );
      } finally {
        await gateway.close();
      }
      const haystack = `${started.logs()}\n${seen.join('\n')}`;
      const forms = [
        ...secretForms(gateway.apiKey),
        ...secretForms(canaryUpstreamKey),
        ...secretForms(wrongKey),
      ];
      const found = forms.filter((form) => haystack.includes(form));
      const logLines = started.logs().split('\n').filter(Boolean).length;
      recordFigure(
        7,
        target.name,
        `${seen.length / 2} responses and ${logLines} log lines (most verbose level) searched for ${forms.length} forms of 3 keys: ${found.length} matches`,
        '0 matches',
      );
      expect(found).toEqual([]);
      if (target.startWithLogs) expect(logLines).toBeGreaterThan(0);
    }, 60_000);

    it('row 8: every image field of every route refuses every external or local URL, and nothing is ever fetched', async () => {
      const canary = await startCanary('127.0.0.1');
      const canary6 = await startCanary('::1');
      if (!canary) throw new Error('the IPv4 canary could not listen');
      const gateway = await target.start({ upstreams: upstreamsServingEverything(upstream.url) });
      const client = new ContractClient(gateway);
      const urls = [
        `http://127.0.0.1:${canary.port}/x.png`,
        `https://127.0.0.1:${canary.port}/x.png`,
        'file:///etc/passwd',
        'http://169.254.169.254/latest/meta-data/',
        `http://[::1]:${canary6?.port ?? canary.port}/x.png`,
        `http://2130706433:${canary.port}/x.png`,
        'data:text/html;base64,PGh0bWw+PC9odG1sPg==',
        `//127.0.0.1:${canary.port}/x.png`,
      ];
      const calls = upstream.requests.length;
      let checked = 0;
      try {
        for (const field of imageFields) {
          for (const url of urls) {
            const reply = await client.postJson(field.path, field.body(url));
            if (field.path.startsWith('/compat/')) {
              expectCompatError(reply, 400);
              // The compat envelope has no param: the message names the field instead.
              expect(reply.text, url).toContain('image');
            } else expectNativeError(reply, 400, { param: field.param });
            checked += 1;
          }
        }
        // Let any fetch that slipped through arrive before counting.
        await new Promise((resolve) => setTimeout(resolve, 200));
      } finally {
        await gateway.close();
        canary.server.close();
        canary6?.server.close();
      }
      const reached = canary.connections() + (canary6?.connections() ?? 0);
      recordFigure(
        8,
        target.name,
        `${checked} requests (${imageFields.length} fields x ${urls.length} URLs${canary6 ? '' : ', no IPv6 loopback here'}): all 400 naming the field; canary connections ${reached}, upstream calls ${upstream.requests.length - calls}`,
        'canary and upstream: 0 connections',
      );
      expect(reached).toBe(0);
      expect(upstream.requests.length).toBe(calls);
    }, 60_000);

    it('row 22: at twice the admission cap, the excess is refused at once with 503 + Retry-After and every admitted stream completes', async () => {
      const cap = 10;
      const gateway = await target.start({
        upstreams: upstreamsServingEverything(upstream.url),
        limits: { max_concurrent_requests: cap },
      });
      const client = new ContractClient(gateway);
      // Open the client's keep-alive connections first: the row times the gateway's refusal, not TCP setup.
      await Promise.all(
        Array.from({ length: cap * 2 }, () =>
          client
            .request('GET', '/healthz', { anonymous: true })
            .then((response) => response.text()),
        ),
      );
      try {
        const outcomes = await Promise.all(
          Array.from({ length: cap * 2 }, async () => {
            const startedAt = performance.now();
            // 2 s per admitted stream: the refusals must all come while every admitted stream still runs.
            const response = await client.post(
              '/v1/chat/completions',
              { model, messages, stream: true },
              { headers: scriptedHeaders('ok:40:50') },
            );
            const answeredAt = performance.now();
            const answeredAfter = answeredAt - startedAt;
            if (response.status === 503)
              return {
                status: 503,
                answeredAt,
                answeredAfter,
                retryAfter: response.headers.get('retry-after'),
                reply: await toJsonReply(response),
              };
            const read = await readTimed(response);
            return {
              status: response.status,
              answeredAt,
              answeredAfter,
              endedAt: performance.now(),
              done: read.events.at(-1)?.data === '[DONE]',
              errors: read.events.filter((event) => event.data.includes('"error"')).length,
            };
          }),
        );
        const refused = outcomes.filter((outcome) => outcome.status === 503);
        const admitted = outcomes.filter((outcome) => outcome.status === 200);
        expect(admitted.length + refused.length).toBe(cap * 2);
        expect(admitted).toHaveLength(cap);
        for (const outcome of refused) {
          expect(outcome.retryAfter).toBeTruthy();
          if (outcome.reply) expectNativeError(outcome.reply, 503, { code: 'overloaded' });
        }
        for (const outcome of admitted) expect(outcome).toMatchObject({ done: true, errors: 0 });
        const rejectP99 = quantile(
          refused.map((outcome) => outcome.answeredAfter),
          0.99,
        );
        // Once the streams are over, the slots are free again.
        const after = await client.post(
          '/v1/chat/completions',
          { model, messages, stream: true },
          { headers: scriptedHeaders('ok:2:0') },
        );
        expect(after.status).toBe(200);
        await after.text();
        recordFigure(
          22,
          target.name,
          `cap ${cap}, ${cap * 2} at once: ${admitted.length} admitted, all [DONE], 0 errors; ${refused.length} refused 503 + Retry-After, p99 ${rejectP99.toFixed(1)} ms`,
          'reject p99 < 20 ms; 0 errors for admitted',
        );
        // "At once" without a stopwatch (a loaded machine stretches any time bound): no refusal waited
        // for a slot, i.e. every 503 arrived before the first admitted stream ended and freed one.
        const firstAdmittedEnd = Math.min(
          ...admitted.map((outcome) => outcome.endedAt ?? Number.POSITIVE_INFINITY),
        );
        const lastRefusal = Math.max(...refused.map((outcome) => outcome.answeredAt));
        expect(lastRefusal).toBeLessThan(firstAdmittedEnd);
      } finally {
        await gateway.close();
      }
    }, 60_000);

    it('row 24: shutdown with 100 running streams refuses new requests, ends every stream in-protocol within the drain deadline', async () => {
      const graceMs = 2_000;
      const gateway = await target.start({
        upstreams: upstreamsServingEverything(upstream.url),
        timeouts: { shutdown_grace_ms: graceMs },
      });
      const client = new ContractClient(gateway);
      // 100 chunks 50 ms apart: 5 s, longer than the grace, so every stream is still running at the deadline.
      const responses = await Promise.all(
        Array.from({ length: 100 }, () =>
          client.post(
            '/v1/chat/completions',
            { model, messages, stream: true },
            { headers: scriptedHeaders('ok:100:50') },
          ),
        ),
      );
      for (const response of responses) expect(response.status).toBe(200);
      // A stream cut by the shutdown rejects: it counts as cut (undefined).
      const reads = responses.map((response) => readTimed(response).catch(() => undefined));
      const startedAt = performance.now();
      const closing = gateway.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const refused = await client.post('/v1/chat/completions', { model, messages }).then(
        (response) => response.status,
        () => 'connection refused',
      );
      await closing;
      const tookMs = performance.now() - startedAt;
      const results = await Promise.all(reads);
      const ended = results.filter((result) => result?.events.at(-1)?.data === '[DONE]').length;
      const cut = results.length - ended;
      recordFigure(
        24,
        target.name,
        `100 streams: ${ended} ended in-protocol ([DONE] after the terminal error), ${cut} cut; new request: ${refused}; closed in ${Math.round(tookMs)} ms (grace ${graceMs} ms)`,
        'within the drain deadline (test 2 s); exit 0',
      );
      expect([503, 'connection refused']).toContain(refused);
      expect(cut).toBe(0);
      expect(tookMs).toBeLessThanOrEqual(graceMs + 1_000);
    }, 60_000);
  });
}
