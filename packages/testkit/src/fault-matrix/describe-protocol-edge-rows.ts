import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonReply, StartedGateway } from '../contract/contract-client.js';
import { ContractClient } from '../contract/contract-client.js';
import { expectCompatError, expectNativeError } from '../contract/expect-envelopes.js';
import { pngDataUrl } from '../contract/test-images.js';
import { startRecordingUpstream } from '../start-recording-upstream.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../start-scripted-upstream.js';
import { upstreamsServingEverything } from '../upstreams-serving-everything.js';
import type { ConfigFileValue, FaultMatrixTarget } from './fault-matrix-target.js';
import { holdRawRequest } from './hold-raw-request.js';
import { pushRawRequest, rawJsonReply } from './push-raw-request.js';
import { recordFigure } from './record-figure.js';

const model = 'alpha36-35b-a3b-instruct';
const metricsKey = 'ig-fm-metrics-5e1c0a9d7b3f2e8c6a4d';

/** A PNG cut short inside its pixel data: its header reads (a 1x1 image), its pixels do not decode. */
const corruptPng = (() => {
  const png = Buffer.from(pngDataUrl.slice(pngDataUrl.indexOf(',') + 1), 'base64');
  return `data:image/png;base64,${png.subarray(0, png.length - 20).toString('base64')}`;
})();

/** The sum of a counter's samples on GET /metrics; undefined when the app keeps no metrics (the edge app). */
async function counterSum(gateway: StartedGateway, name: string): Promise<number | undefined> {
  const response = await fetch(`${gateway.baseUrl}/metrics`, {
    headers: { authorization: `Bearer ${metricsKey}` },
  });
  const text = await response.text();
  if (response.status === 404) return undefined;
  expect(response.status, text).toBe(200);
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** One raw HTTP/1.1 exchange on a connection of its own (`Connection: close`), `body` sent as its bytes. */
async function exchange(gateway: StartedGateway, head: string, body: Buffer = Buffer.alloc(0)) {
  const pushed = await pushRawRequest(
    gateway.baseUrl,
    head,
    body.length === 0 ? {} : { piece: body, pushBytes: body.length },
  );
  return rawJsonReply(pushed.text);
}

/** A request head with the given lines between the request line and the blank line. */
function head(requestLine: string, ...lines: string[]): string {
  return `${requestLine}\r\nHost: gateway\r\n${lines.map((line) => `${line}\r\n`).join('')}Connection: close\r\n\r\n`;
}

/**
 * The smaller hardening findings against one app, each provoked as the issue did and held to the fix:
 * the protocol's edges (repeated credentials, encodings, methods, long or odd targets), upstream
 * messages passed on without the upstream's details, and images no model server can read.
 */
export function describeProtocolEdgeRows(target: FaultMatrixTarget): void {
  describe(`fault matrix, protocol edges: ${target.name}`, () => {
    let upstream: ScriptedUpstream;
    const started: StartedGateway[] = [];
    const start = async (file: ConfigFileValue = {}): Promise<StartedGateway> => {
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

    it('row 35: two Authorization headers are 400 multiple_authorization, with a body or without, whatever the keys', async () => {
      const gateway = await start();
      const key = `Authorization: Bearer ${gateway.apiKey}`;
      const calls = upstream.requests.length;
      const body = Buffer.from(
        JSON.stringify({ model, messages: [{ role: 'user', content: 'Go.' }] }),
      );
      const chatHead = (...auth: string[]) =>
        head(
          'POST /v1/chat/completions HTTP/1.1',
          ...auth,
          'Content-Type: application/json',
          `Content-Length: ${body.length}`,
        );
      const replies = [
        await exchange(gateway, head('GET /v1/models HTTP/1.1', key, key)),
        await exchange(
          gateway,
          head('GET /v1/models HTTP/1.1', key, 'Authorization: Bearer ig-not-a-key'),
        ),
        await exchange(
          gateway,
          head('GET /v1/models HTTP/1.1', 'Authorization: Bearer ig-not-a-key', key),
        ),
        await exchange(gateway, chatHead(key, key), body),
      ];
      const single = await exchange(gateway, chatHead(key), body);
      recordFigure(
        35,
        target.name,
        `two Authorization headers: ${replies.map((reply) => reply.status).join(', ')}; one: ${single.status}; upstream calls for the doubled ones ${upstream.requests.length - calls - 1}`,
        '400 multiple_authorization, no upstream call',
      );
      for (const reply of replies)
        expectNativeError(reply, 400, { code: 'multiple_authorization' });
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
            response.end(
              JSON.stringify({
                error: { message, type: 'BadRequestError', param: null, code: 400 },
              }),
            );
          },
        },
      });
      try {
        const gateway = await start({ upstreams: upstreamsServingEverything(leaky.url) });
        const reply = await new ContractClient(gateway).postJson('/v1/chat/completions', {
          model,
          messages: [{ role: 'user', content: 'Go.' }],
        });
        const error = expectNativeError(reply, 400, { code: 'upstream_rejected' });
        const kept = leaks.filter((leak) => reply.text.includes(leak));
        recordFigure(
          36,
          target.name,
          `an upstream 400 naming ${leaks.length} details: ${kept.length} reached the client`,
          '0, the rest of the message kept',
        );
        expect(kept).toEqual([]);
        expect(error.message).toContain(
          "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.",
        );
      } finally {
        await leaky.close();
      }
    });

    it('row 37: a corrupt client image is 400 on compat embed and image edits, and never counts against the model server', async () => {
      // The embedded local backend, as the issue met it: it decodes the images these two routes send.
      const gateway = await target.start({ metrics: { key: metricsKey } });
      started.push(gateway);
      const client = new ContractClient(gateway);
      const embed = (url: string) =>
        client.postJson('/compat/v2/embed', {
          model: 'alpha3-vl-embedding-8b',
          inputs: [{ content: [{ type: 'image_url', image_url: { url } }] }],
          input_type: 'image',
        });
      const errorsBefore = await counterSum(gateway, 'infergate_upstream_errors_total');
      // More than the 5 consecutive failures that would eject an endpoint.
      const embeds = [];
      for (let attempt = 0; attempt < 6; attempt += 1) embeds.push(await embed(corruptPng));
      const edit = await client.postJson('/v1/images/edits', {
        model: 'alpha-image-edit',
        prompt: 'blue',
        images: [{ image_url: corruptPng }],
        size: '16x16',
        quality: 'low',
        output_format: 'png',
      });
      const errorsAfter = await counterSum(gateway, 'infergate_upstream_errors_total');
      const ejections = await counterSum(gateway, 'infergate_upstream_ejections_total');
      const valid = await embed(pngDataUrl);
      recordFigure(
        37,
        target.name,
        `6 corrupt images on compat embed: ${embeds.map((reply) => reply.status).join(', ')}; on image edits: ${edit.status}; ` +
          (errorsBefore === undefined
            ? 'no metrics on this app'
            : `upstream errors ${errorsBefore} -> ${errorsAfter}, ejections ${ejections}`) +
          `; a valid image then: ${valid.status}`,
        '400; no upstream error, no ejection',
      );
      for (const reply of embeds) expectCompatError(reply, 400);
      expectNativeError(edit, 400);
      expect(errorsAfter).toBe(errorsBefore);
      if (ejections !== undefined) expect(ejections).toBe(0);
      expect(valid.status).toBe(200);
    }, 60_000);

    it('row 38: a gzip-encoded JSON body is 415 naming Content-Encoding, before the body is read; the same body uncompressed is 200', async () => {
      const gateway = await start();
      const json = Buffer.from(
        JSON.stringify({ model, messages: [{ role: 'user', content: 'Go.' }] }),
      );
      const calls = upstream.requests.length;
      const replies = [];
      for (const encoding of ['gzip', 'br', 'deflate']) {
        const body = encoding === 'gzip' ? gzipSync(json) : json;
        const lines = [
          `Authorization: Bearer ${gateway.apiKey}`,
          'Content-Type: application/json',
          `Content-Encoding: ${encoding}`,
          `Content-Length: ${body.length}`,
        ];
        replies.push(
          await exchange(gateway, head('POST /v1/chat/completions HTTP/1.1', ...lines), body),
        );
      }
      const plain = await exchange(
        gateway,
        head(
          'POST /v1/chat/completions HTTP/1.1',
          `Authorization: Bearer ${gateway.apiKey}`,
          'Content-Type: application/json',
          `Content-Length: ${json.length}`,
        ),
        json,
      );
      recordFigure(
        38,
        target.name,
        `gzip, br, deflate bodies: ${replies.map((reply) => reply.status).join(', ')}; uncompressed: ${plain.status}`,
        '415 naming Content-Encoding',
      );
      for (const reply of replies) {
        const error = expectNativeError(reply, 415, { code: 'unsupported_content_encoding' });
        expect(error.message).toContain('Content-Encoding');
        expect(reply.headers.get('accept-encoding')).toBe('identity');
      }
      expect(plain.status).toBe(200);
      expect(upstream.requests.length - calls).toBe(1);
    });

    it('row 39: a JSON body with bytes that are not UTF-8 is 400 naming UTF-8, never passed on with U+FFFD', async () => {
      const gateway = await start();
      const calls = upstream.requests.length;
      const bodyWith = (bytes: number[]) =>
        Buffer.concat([
          Buffer.from(`{"model":"${model}","messages":[{"role":"user","content":"caf`),
          Buffer.from(bytes),
          Buffer.from('"}]}'),
        ]);
      // A lone byte, an overlong '/', an encoded surrogate, a sequence cut short: each is 400.
      const invalid = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]];
      const replies = [];
      for (const bytes of invalid) {
        const body = bodyWith(bytes);
        const lines = [
          `Authorization: Bearer ${gateway.apiKey}`,
          'Content-Type: application/json',
          `Content-Length: ${body.length}`,
        ];
        replies.push(
          await exchange(gateway, head('POST /v1/chat/completions HTTP/1.1', ...lines), body),
        );
      }
      const valid = bodyWith([0xc3, 0xa9]);
      const lines = [
        `Authorization: Bearer ${gateway.apiKey}`,
        'Content-Type: application/json',
        `Content-Length: ${valid.length}`,
      ];
      const accepted = await exchange(
        gateway,
        head('POST /v1/chat/completions HTTP/1.1', ...lines),
        valid,
      );
      recordFigure(
        39,
        target.name,
        `${invalid.length} bodies with invalid UTF-8: ${replies.map((reply) => reply.status).join(', ')}; valid "café": ${accepted.status}`,
        '400 naming UTF-8',
      );
      for (const reply of replies) {
        const error = expectNativeError(reply, 400, { code: 'invalid_json' });
        expect(error.message).toContain('UTF-8');
      }
      expect(accepted.status).toBe(200);
      expect(upstream.requests.length - calls).toBe(1);
    });

    it("row 40: HEAD answers where GET does, with the GET's status and headers and no body; 405 lists HEAD beside GET", async () => {
      const gateway = await start();
      const key = `Authorization: Bearer ${gateway.apiKey}`;
      const paths = [
        '/healthz',
        '/readyz',
        '/v1/models',
        `/v1/models/${model}`,
        '/pricing',
        '/openapi.json',
      ];
      const pairs = [];
      for (const path of paths) {
        const get = await exchange(gateway, head(`GET ${path} HTTP/1.1`, key));
        const pushed = await pushRawRequest(gateway.baseUrl, head(`HEAD ${path} HTTP/1.1`, key));
        pairs.push({
          path,
          get,
          head: rawJsonReply(pushed.text),
          bodyBytes: pushed.text.length - pushed.text.indexOf('\r\n\r\n') - 4,
        });
      }
      const anonymous = await pushRawRequest(gateway.baseUrl, head('HEAD /v1/models HTTP/1.1'));
      const wrongMethod = await exchange(gateway, head('DELETE /healthz HTTP/1.1'));
      const postOnly = await exchange(gateway, head('HEAD /tokenize HTTP/1.1', key));
      recordFigure(
        40,
        target.name,
        `HEAD on ${paths.length} GET paths: ${pairs.map((pair) => pair.head.status).join(', ')}, body bytes ${pairs.map((pair) => pair.bodyBytes).join(', ')}; ` +
          `without a key ${anonymous.status}; DELETE /healthz Allow: ${wrongMethod.headers.get('allow')}; HEAD on a POST path ${postOnly.status}`,
        "the GET's status and headers, no body",
      );
      for (const pair of pairs) {
        expect(pair.head.status, pair.path).toBe(pair.get.status);
        expect(pair.get.status, pair.path).toBe(200);
        expect(pair.bodyBytes, pair.path).toBe(0);
        for (const name of ['content-type', 'content-length', 'cache-control'])
          expect(pair.head.headers.get(name), `${pair.path} ${name}`).toBe(
            pair.get.headers.get(name),
          );
        expect(pair.head.headers.get('x-request-id'), pair.path).toBeTruthy();
      }
      expect([
        anonymous.status,
        anonymous.text.slice(anonymous.text.indexOf('\r\n\r\n') + 4),
      ]).toEqual([401, '']);
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD');
      expect([postOnly.status, postOnly.headers.get('allow')]).toEqual([405, 'POST']);
    });
    it('row 41: a URL over the header limit is 414 and a header over it 431, each in the envelope with a request id', async () => {
      const gateway = await start();
      const key = `Authorization: Bearer ${gateway.apiKey}`;
      const longUrl = await exchange(
        gateway,
        head(`GET /v1/models/${'m'.repeat(20_000)} HTTP/1.1`, key),
      );
      const longHeader = await exchange(
        gateway,
        head('GET /v1/models HTTP/1.1', key, `X-Padding: ${'p'.repeat(20_000)}`),
      );
      const longModel = await exchange(
        gateway,
        head(`GET /v1/models/${'m'.repeat(2_000)} HTTP/1.1`, key),
      );
      recordFigure(
        41,
        target.name,
        `20 KB URL ${longUrl.status}; 20 KB header ${longHeader.status}; 2 KB model id ${longModel.status}`,
        '414, 431, 404',
      );
      expectNativeError(longUrl, 414, { code: 'uri_too_long' });
      expectNativeError(longHeader, 431, { code: 'headers_too_large' });
      // Under the limit a long id is an unknown model, as any other.
      expect(longModel.status).toBe(404);
      for (const reply of [longUrl, longHeader])
        expect(reply.headers.get('x-request-id')).toBeTruthy();
    });

    it('row 42: what Node refuses before any route (an Expect it cannot meet, no Host, a broken escape, smuggling) is in the envelope with a request id', async () => {
      const gateway = await start();
      const key = `Authorization: Bearer ${gateway.apiKey}`;
      const replies = {
        expect: await exchange(gateway, head('GET /v1/models HTTP/1.1', key, 'Expect: 200-ok')),
        noHost: rawJsonReply(
          (
            await pushRawRequest(
              gateway.baseUrl,
              `GET /v1/models HTTP/1.1\r\n${key}\r\nConnection: close\r\n\r\n`,
            )
          ).text,
        ),
        badEscape: await exchange(gateway, head('GET /v1/models/%E0%A4%A HTTP/1.1', key)),
        smuggling: await exchange(
          gateway,
          head(
            'POST /v1/chat/completions HTTP/1.1',
            key,
            'Content-Length: 4',
            'Transfer-Encoding: chunked',
          ),
          Buffer.from('0\r\n\r\n'),
        ),
      };
      recordFigure(
        42,
        target.name,
        Object.entries(replies)
          .map(
            ([name, reply]) =>
              `${name} ${reply.status}${reply.headers.get('x-request-id') === null ? ' (no request id)' : ''}`,
          )
          .join('; '),
        '417, 400, 404, 400, each an envelope with x-request-id',
      );
      expectNativeError(replies.expect, 417, { code: 'expectation_failed' });
      expectNativeError(replies.noHost, 400, { code: 'malformed_request' });
      expectNativeError(replies.badEscape, 404);
      expectNativeError(replies.smuggling, 400, { code: 'malformed_request' });
      for (const [name, reply] of Object.entries(replies))
        expect(reply.headers.get('x-request-id'), name).toBeTruthy();
    });

    it('row 43: one request line per request, alike on both apps: answers at info, refusals at warn, a 408 as a 408', async () => {
      if (target.startWithLogs === undefined)
        throw new Error(`${target.name} keeps no request log`);
      const { gateway, logs } = await target.startWithLogs({
        upstreams: upstreamsServingEverything(upstream.url),
        timeouts: { inbound_headers_ms: 400, inbound_request_ms: 800 },
      });
      started.push(gateway);
      const client = new ContractClient(gateway);
      const chat = { model, messages: [{ role: 'user', content: 'Go.' }] };
      expect(
        (
          await client.postJson('/v1/chat/completions', chat, {
            headers: { 'x-request-id': 'row43-ok' },
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await client.postJson('/v1/chat/completions', chat, {
            anonymous: true,
            headers: { 'x-request-id': 'row43-401' },
          })
        ).status,
      ).toBe(401);
      expect(
        (await client.getJson('/v1/nowhere', { headers: { 'x-request-id': 'row43-404' } })).status,
      ).toBe(404);
      // A body that trickles (never idle for body_idle_ms) past the whole-request limit: Node answers 408 on the socket.
      const body = JSON.stringify(chat);
      const slow = holdRawRequest(
        gateway.baseUrl,
        head(
          'POST /v1/chat/completions HTTP/1.1',
          `Authorization: Bearer ${gateway.apiKey}`,
          'X-Request-Id: row43-408',
          'Content-Type: application/json',
          `Content-Length: ${body.length}`,
        ),
      );
      const dripping = (async () => {
        for (const char of body.slice(0, 20)) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          await slow.send(char).catch(() => undefined);
        }
      })();
      const answer = await slow.answered;
      await dripping;
      slow.destroy();
      // Headers that never end: a request that never reached a route, refused with 408 and logged all the same.
      const stalled = holdRawRequest(
        gateway.baseUrl,
        'GET /v1/models HTTP/1.1\r\nHost: gateway\r\n',
      );
      const stalledAnswer = await stalled.answered;
      stalled.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const lines = logs()
        .split('\n')
        .filter((line) => line.includes('"msg":"request"'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const byId = (id: string) => lines.filter((line) => line.requestId === id);
      const headerTimeouts = lines.filter(
        (line) => line.status === 408 && line.route === 'unmatched',
      );
      recordFigure(
        43,
        target.name,
        `levels 200 ${String(byId('row43-ok')[0]?.level)}, 401 ${String(byId('row43-401')[0]?.level)}, 404 ${String(byId('row43-404')[0]?.level)}; ` +
          `trickled body answered ${answer.status}, logged ${
            byId('row43-408')
              .map((line) => String(line.status))
              .join(',') || 'nothing'
          }; header timeout answered ${stalledAnswer.status}, lines ${headerTimeouts.length}`,
        'info, warn, warn; 408 logged as 408',
      );
      const fields = ['requestId', 'method', 'route', 'status', 'durationMs'];
      expect(byId('row43-ok')).toEqual([
        expect.objectContaining({
          level: 30,
          route: '/v1/chat/completions',
          status: 200,
          model,
          upstream: expect.stringMatching(/^test-/),
        }),
      ]);
      for (const name of fields) expect(byId('row43-ok')[0], name).toHaveProperty(name);
      expect(byId('row43-401')).toEqual([
        expect.objectContaining({ level: 40, status: 401, route: '/v1/chat/completions' }),
      ]);
      expect(byId('row43-404')).toEqual([
        expect.objectContaining({ level: 40, status: 404, route: 'unmatched' }),
      ]);
      expect(answer.status).toBe(408);
      expect(byId('row43-408')).toEqual([expect.objectContaining({ level: 40, status: 408 })]);
      expect(stalledAnswer.status).toBe(408);
      expect(headerTimeouts).toEqual([expect.objectContaining({ level: 40, status: 408 })]);
    });

    it('row 44: dot segments are resolved alike on both apps, as a URL parser resolves them', async () => {
      const gateway = await start();
      const key = `Authorization: Bearer ${gateway.apiKey}`;
      const paths = [
        '/v1/./models',
        '/v1/x/../models',
        '/v1/%2e/models',
        '/v1/x/%2E%2E/models',
        '/healthz/../v1/models',
      ];
      const replies: JsonReply[] = [];
      for (const path of paths)
        replies.push(await exchange(gateway, head(`GET ${path} HTTP/1.1`, key)));
      const escaped = await exchange(gateway, head('GET /../../etc/passwd HTTP/1.1', key));
      recordFigure(
        44,
        target.name,
        `${paths.map((path, index) => `${path} ${replies[index]?.status}`).join('; ')}; /../../etc/passwd ${escaped.status}`,
        'as /v1/models: 200',
      );
      for (const [index, reply] of replies.entries()) {
        expect(reply.status, paths[index]).toBe(200);
        expect(reply.json, paths[index]).toMatchObject({ object: 'list' });
      }
      // Above the root there is nothing: the path resolves to /etc/passwd, which no route serves.
      expectNativeError(escaped, 404);
    });
  });
}
