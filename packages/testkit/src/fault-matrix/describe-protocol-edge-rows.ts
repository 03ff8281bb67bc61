import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedGateway } from '../contract/contract-client.js';
import { ContractClient } from '../contract/contract-client.js';
import { expectNativeError } from '../contract/expect-envelopes.js';
import { startRecordingUpstream } from '../start-recording-upstream.js';
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

    it("row 36: an upstream's error message reaches the client without its paths, hosts, addresses or keys, and still says what to change", async () => {
      // What a vLLM behind a proxy may write: its source file, its model directory, its peer and the credentials it was sent.
      const leaks = [
        '/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/serving_chat.py',
        '/models/Qwen3-8B',
        'vllm-gpu-pool',
        'fd00:10:96::a1',
        'k-7f3a9c1e5b2d',
        'AKIAIOSFODNN7EXAMPLE',
        'sk-proj-AbC123dEf456GhI789jKl0',
      ];
      const message =
        `This model's maximum context length is 8192 tokens. However, you requested 9000 tokens. (File "${leaks[0]}", line 233; ` +
        `model ${leaks[1]}; host='${leaks[2]}' at ${leaks[3]}; headers {"x-api-key": "${leaks[4]}"}; ${leaks[5]}; ${leaks[6]})`;
      const leaky = await startRecordingUpstream({
        handlers: {
          'POST /v1/chat/completions': (_request, response) => {
            response.writeHead(400, { 'content-type': 'application/json' });
            response.end(JSON.stringify({ error: { message, type: 'BadRequestError', param: null, code: 400 } }));
          },
        },
      });
      try {
        const gateway = await start({ upstreams: upstreamsServingEverything(leaky.url) });
        const reply = await new ContractClient(gateway).postJson('/v1/chat/completions', { model, messages: [{ role: 'user', content: 'Go.' }] });
        const error = expectNativeError(reply, 400, { code: 'upstream_rejected' });
        const kept = leaks.filter((leak) => reply.text.includes(leak));
        recordFigure(36, target.name, `an upstream 400 naming ${leaks.length} details: ${kept.length} reached the client`, '0, the rest of the message kept');
        expect(kept).toEqual([]);
        expect(error.message).toContain("This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.");
      } finally {
        await leaky.close();
      }
    });
  });
}
