import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earlyAnswerLinger } from '@infergate/core';
import { ContractClient, type StartedGateway } from '../contract/contract-client.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../start-scripted-upstream.js';
import { upstreamsServingEverything } from '../upstreams-serving-everything.js';
import type { ConfigFileValue, FaultMatrixTarget } from './fault-matrix-target.js';
import { holdRawRequest } from './hold-raw-request.js';
import { pushRawRequest } from './push-raw-request.js';
import { recordFigure } from './record-figure.js';
import { streamBodyWithNodeHttp } from './stream-body-with-node-http.js';

const mib = 1024 * 1024;
const model = 'alpha36-35b-a3b-instruct';
// Tiny limits (the matrix's rule: tiny values, wide bounds): a chat body of up to 8 MiB, 8 MiB in flight
// at once, so that two declared 4 MiB bodies fill the whole budget; a body idle for 500 ms is cut.
const bodyLimit = 8 * mib;
const bodyIdleMs = 500;
const limits = {
  body_image_bytes: bodyLimit,
  body_json_bytes: 256 * 1024,
  max_inflight_body_bytes: bodyLimit,
};
const chatHead = (contentLength: number | 'chunked', authorization?: string): string =>
  `POST /v1/chat/completions HTTP/1.1\r\nHost: test\r\n${authorization === undefined ? '' : `Authorization: ${authorization}\r\n`}` +
  `Content-Type: application/json\r\n${contentLength === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${contentLength}`}\r\n\r\n`;
/** A chat body of exactly `bytes` bytes (one long user message). */
const chatBody = (bytes: number): Buffer => {
  const frame = JSON.stringify({ model, messages: [{ role: 'user', content: '' }] });
  return Buffer.from(
    frame.replace('"content":""', `"content":"${'a'.repeat(bytes - frame.length)}"`),
  );
};

/** How often each outcome (`413`, `413/EPIPE`...) came. */
function tally(outcomes: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
  return counts;
}

/**
 * The hardening rows against one app: the key is checked before a byte of the body is read or counted
 * against the in-flight budget, a body that stops arriving is cut with 408 and gives its budget back,
 * and an answer given before the body arrived (401, 413) reaches a client that is still sending.
 */
export function describeBodyAdmissionRows(target: FaultMatrixTarget): void {
  describe(`fault matrix, the key before the body and early answers: ${target.name}`, () => {
    let upstream: ScriptedUpstream;
    const started: StartedGateway[] = [];
    const start = async (file: ConfigFileValue): Promise<StartedGateway> => {
      const gateway = await target.start({
        upstreams: upstreamsServingEverything(upstream.url),
        ...file,
      });
      started.push(gateway);
      return gateway;
    };

    beforeAll(async () => {
      upstream = await startScriptedUpstream();
      upstream.setDefaultScript('ok:1:0');
    });

    afterAll(async () => {
      for (const gateway of started) await gateway.close();
      await upstream?.close();
    });

    it('row 27: sockets sending only headers and "{" without a valid key get 401 at once and are closed; a keyed chat meanwhile gets 200', async () => {
      const gateway = await start({ limits });
      // Before the fix, three such sockets held the whole budget and every keyed POST got 503 overloaded.
      const attackers = [undefined, 'Bearer ig-not-a-key', undefined].map((authorization) =>
        holdRawRequest(gateway.baseUrl, `${chatHead(4 * mib, authorization)}{`),
      );
      const answers = await Promise.all(attackers.map((attacker) => attacker.answered));
      const chat = await new ContractClient(gateway).postJson('/v1/chat/completions', {
        model,
        messages: [{ role: 'user', content: 'Go.' }],
      });
      const closedAt = await Promise.all(attackers.map((attacker) => attacker.closed));
      const slowestClose = Math.max(
        ...closedAt.map((at, index) => at - (answers[index]?.at ?? at)),
      );
      recordFigure(
        27,
        target.name,
        `3 sockets declaring 4 MiB each against an 8 MiB budget: ${answers.map((answer) => answer.status).join(', ')} with only "{" sent; keyed chat meanwhile ${chat.status}; closed at most ${Math.round(slowestClose)} ms after their answer`,
        '401 without the body, then closed; the keyed chat 200',
      );
      for (const answer of answers) {
        expect(answer.status, answer.text()).toBe(401);
        const head = answer.text().split('\r\n\r\n')[0]?.toLowerCase() ?? '';
        expect(head).toContain('connection: close');
        expect(head).toContain('www-authenticate: bearer');
        expect(head).toContain('x-request-id: ');
      }
      expect(chat.status, chat.text).toBe(200);
      // Closed by the server, within the lingering close of an answer given before the body.
      expect(slowestClose).toBeLessThanOrEqual(earlyAnswerLinger.ms + 3_000);
    }, 30_000);

    it('row 28: a keyed body that stops arriving is cut with 408 within body_idle_ms + 1 s, and its budget is free again at once', async () => {
      const gateway = await start({ limits, timeouts: { body_idle_ms: bodyIdleMs } });
      const client = new ContractClient(gateway);
      const large = chatBody(6 * mib);
      const stalled = holdRawRequest(
        gateway.baseUrl,
        chatHead(large.length, `Bearer ${gateway.apiKey}`),
      );
      await stalled.send(large.subarray(0, mib));
      // The gateway admits the stalled body before the probe below asks: on a busy machine its headers
      // may otherwise be read second, and the probe would hold the budget instead.
      await new Promise((resolve) => setTimeout(resolve, 250));
      // While the stalled body holds its 6 MiB, another 6 MiB body does not fit the 8 MiB budget: refused
      // from its headers (a raw request that sends no body, so that the test's own work stays small).
      const probe = holdRawRequest(
        gateway.baseUrl,
        chatHead(large.length, `Bearer ${gateway.apiKey}`),
      );
      const whileHeld = await probe.answered;
      probe.destroy();
      const cut = await stalled.answered;
      const cutAfter = cut.at - stalled.lastSentAt();
      const after = await client.postJson('/v1/chat/completions', large.toString('latin1'));
      recordFigure(
        28,
        target.name,
        `6 MiB declared, 1 MiB sent, then silence: ${cut.status} ${Math.round(cutAfter)} ms after the last byte (body_idle_ms ${bodyIdleMs}); a second 6 MiB body: ${whileHeld.status} while held, ${after.status} after the cut`,
        '408 within body_idle_ms + 1 s; budget free again',
      );
      expect(cut.status, cut.text()).toBe(408);
      expect(cutAfter).toBeLessThanOrEqual(bodyIdleMs + 1_000);
      expect(cut.text().toLowerCase()).toContain('connection: close');
      expect(whileHeld.status, whileHeld.text()).toBe(503);
      expect(after.status, after.text).toBe(200);
      await stalled.closed;
    }, 30_000);

    it('row 29: a node:http client still sending sees 413 and 401 every time, never EPIPE or ECONNRESET', async () => {
      const gateway = await start({
        limits: { ...limits, body_image_bytes: mib, max_inflight_body_bytes: mib },
      });
      const url = `${gateway.baseUrl}/v1/chat/completions`;
      const cases = [
        {
          name: 'chunked 200 MB over the limit',
          declared: false,
          totalBytes: 200 * mib,
          key: true,
          status: 413,
        },
        {
          name: 'declared 50 MB over the limit',
          declared: true,
          totalBytes: 50 * mib,
          key: true,
          status: 413,
        },
        {
          name: 'declared 4 MB over the limit',
          declared: true,
          totalBytes: 4 * mib,
          key: true,
          status: 413,
        },
        {
          name: 'declared 50 MB without a key',
          declared: true,
          totalBytes: 50 * mib,
          key: false,
          status: 401,
        },
        {
          name: 'chunked 200 MB without a key',
          declared: false,
          totalBytes: 200 * mib,
          key: false,
          status: 401,
        },
      ];
      const figures: string[] = [];
      const failures: string[] = [];
      for (const entry of cases) {
        const headers = {
          'content-type': 'application/json',
          ...(entry.key ? { authorization: `Bearer ${gateway.apiKey}` } : {}),
        };
        const outcomes: string[] = [];
        for (let attempt = 0; attempt < 20; attempt += 1) {
          const outcome = await streamBodyWithNodeHttp(url, {
            headers,
            totalBytes: entry.totalBytes,
            declared: entry.declared,
          });
          outcomes.push(
            outcome.error === undefined
              ? String(outcome.status)
              : `${outcome.status}/${outcome.error}`,
          );
        }
        const counts = tally(outcomes);
        figures.push(`${entry.name}: ${JSON.stringify(counts)}`);
        if (counts[String(entry.status)] !== 20)
          failures.push(`${entry.name}: ${JSON.stringify(counts)}`);
      }
      recordFigure(29, target.name, figures.join('; '), 'the status 20/20, no EPIPE or ECONNRESET');
      expect(failures).toEqual([]);
    }, 120_000);

    it('row 30: a 401 is answered without reading the body: what the server took stays far below the body pushed at it', async () => {
      const gateway = await start({ limits });
      const pushed = 200 * mib;
      const result = await pushRawRequest(
        gateway.baseUrl,
        chatHead(pushed, 'Bearer ig-not-a-key'),
        { pushBytes: pushed, giveUpMs: 20_000 },
      );
      recordFigure(
        30,
        target.name,
        `no valid key, ${pushed / mib} MiB pushed: ${result.status} after ${result.answeredAfterMs.toFixed(1)} ms, ${(result.bodyBytesAccepted / mib).toFixed(2)} MiB accepted by the socket`,
        'accepted <= the lingering close bound + socket buffers, far below the body',
      );
      expect(result.status, result.text.slice(0, 300)).toBe(401);
      expect(result.closed).toBe(true);
      // What the kernel accepted bounds what the server read: the lingering close's bytes, plus socket buffers.
      expect(result.bodyBytesAccepted).toBeLessThanOrEqual(earlyAnswerLinger.bytes + 16 * mib);
    }, 30_000);
  });
}
