import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedGateway } from '../contract/contract-client.js';
import { expectNativeError } from '../contract/expect-envelopes.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../start-scripted-upstream.js';
import { upstreamsServingEverything } from '../upstreams-serving-everything.js';
import type { ConfigFileValue, FaultMatrixTarget } from './fault-matrix-target.js';
import { pushRawRequest, rawJsonReply } from './push-raw-request.js';
import { recordFigure } from './record-figure.js';

const model = 'alpha36-35b-a3b-instruct';

/** One raw HTTP/1.1 exchange on a connection of its own (`Connection: close`), `body` sent as its bytes. */
async function exchange(gateway: StartedGateway, head: string, body: Buffer = Buffer.alloc(0)) {
  const pushed = await pushRawRequest(gateway.baseUrl, head, body.length === 0 ? {} : { piece: body, pushBytes: body.length });
  return rawJsonReply(pushed.text);
}

/** A request head with the given lines between the request line and the blank line. */
function head(requestLine: string, ...lines: string[]): string {
  return `${requestLine}\r\nHost: gateway\r\n${lines.map((line) => `${line}\r\n`).join('')}Connection: close\r\n\r\n`;
}

/**
 * Issue 40's smaller findings against one app, each provoked as the issue did and held to the fix:
 * the protocol's edges (repeated credentials, encodings, methods, long or odd targets), upstream
 * messages passed on without the upstream's details, and images no model server can read.
 */
export function describeProtocolEdgeRows(target: FaultMatrixTarget): void {
  describe(`fault matrix, protocol edges: ${target.name}`, () => {
    let upstream: ScriptedUpstream;
    const started: StartedGateway[] = [];
    const start = async (file: ConfigFileValue = {}): Promise<StartedGateway> => {
      const gateway = await target.start({ upstreams: upstreamsServingEverything(upstream.url), ...file });
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

    it('row 35: two Authorization headers are 400 multiple_authorization, with a body or without, whatever the keys', async () => {
      const gateway = await start();
      const key = `Authorization: Bearer ${gateway.apiKey}`;
      const calls = upstream.requests.length;
      const body = Buffer.from(JSON.stringify({ model, messages: [{ role: 'user', content: 'Go.' }] }));
      const chatHead = (...auth: string[]) =>
        head('POST /v1/chat/completions HTTP/1.1', ...auth, 'Content-Type: application/json', `Content-Length: ${body.length}`);
      const replies = [
        await exchange(gateway, head('GET /v1/models HTTP/1.1', key, key)),
        await exchange(gateway, head('GET /v1/models HTTP/1.1', key, 'Authorization: Bearer ig-not-a-key')),
        await exchange(gateway, head('GET /v1/models HTTP/1.1', 'Authorization: Bearer ig-not-a-key', key)),
        await exchange(gateway, chatHead(key, key), body),
      ];
      const single = await exchange(gateway, chatHead(key), body);
      recordFigure(
        35,
        target.name,
        `two Authorization headers: ${replies.map((reply) => reply.status).join(', ')}; one: ${single.status}; upstream calls for the doubled ones ${upstream.requests.length - calls - 1}`,
        '400 multiple_authorization, no upstream call',
      );
      for (const reply of replies) expectNativeError(reply, 400, { code: 'multiple_authorization' });
      expect(single.status).toBe(200);
      expect(upstream.requests.length - calls).toBe(1);
    });
  });
}
