import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '@infergate/core';
import { ContractClient, toJsonReply, type StartedGateway } from '../contract/contract-client.js';
import { expectErrorEnvelope, expectNativeError } from '../contract/expect-envelopes.js';
import { startScriptedUpstream, type ScriptedUpstream } from '../start-scripted-upstream.js';
import { upstreamsServingEverything } from '../upstreams-serving-everything.js';
import type { FaultMatrixTarget } from './fault-matrix-target.js';
import { pushRawRequest, rawResponseJson } from './push-raw-request.js';
import { quantile, recordFigure } from './record-figure.js';
import { validBodies } from './route-bodies.js';
import { settledMemoryMb, signedMb } from './settled-memory.js';

const mib = 1024 * 1024;
// Tiny limits for rows 3 and 4 (tests configure tiny values, assert wide bounds).
const smallJsonLimit = 256 * 1024;
const smallImageLimit = mib;

const concretePath = (path: string): string => path.replaceAll(/\{[^}]+\}/g, 'x');

/**
 * fault-matrix rows 2-6, 9 and 25 against one app: prototype poisoning, bodies over the limit by
 * Content-Length and chunked, header bombs and smuggling, bad credentials on every route, oversized
 * images, mass assignment. A scripted upstream counts the calls that must never happen. Row 1, the
 * fuzzing, is describeHostileBodyRow: it times nothing, so it can run beside other files.
 */
export function describeInputRows(target: FaultMatrixTarget): void {
  describe(`fault matrix, hostile input: ${target.name}`, () => {
    let upstream: ScriptedUpstream;
    let gateway: StartedGateway;
    let small: StartedGateway;
    let client: ContractClient;

    beforeAll(async () => {
      upstream = await startScriptedUpstream();
      upstream.setDefaultScript('ok:1:0');
      const upstreams = upstreamsServingEverything(upstream.url);
      gateway = await target.start({ upstreams });
      small = await target.start({
        upstreams,
        limits: { body_json_bytes: smallJsonLimit, body_image_bytes: smallImageLimit },
      });
      client = new ContractClient(gateway);
    });

    afterAll(async () => {
      await gateway?.close();
      await small?.close();
      await upstream?.close();
    });

    it('row 2: prototype poisoning is a 400 envelope and pollutes nothing', async () => {
      for (const [path, valid] of Object.entries(validBodies)) {
        const text = JSON.stringify(valid).slice(0, -1);
        for (const poison of ['"__proto__":{"p":1}', '"constructor":{"prototype":{"p":1}}']) {
          const reply = await client.postJson(path, `${text},${poison}}`);
          expectErrorEnvelope(reply, path, 400);
        }
      }
      expect(({} as Record<string, unknown>).p).toBeUndefined();
      recordFigure(
        2,
        target.name,
        `${Object.keys(validBodies).length * 2} poisoned bodies: all 400; ({}).p undefined`,
        '400 envelope, ({}).p === undefined',
      );
    });

    const overLimit = (chunked: boolean) => async (): Promise<void> => {
      const figures: string[] = [];
      for (const [path, limit] of [
        ['/v1/embeddings', smallJsonLimit],
        ['/v1/chat/completions', smallImageLimit],
      ] as const) {
        const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${limit + 1}`;
        const head = `POST ${path} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${small.apiKey}\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;
        const data = Buffer.alloc(64 * 1024, 0x61);
        const piece = chunked
          ? Buffer.concat([
              Buffer.from(`${data.length.toString(16)}\r\n`),
              data,
              Buffer.from('\r\n'),
            ])
          : data;
        // Bounded on live memory (heap + buffers) after full collections, as row 1 is: this process
        // also holds the test's own client, which pushes the 200 MiB, and its RSS keeps what the
        // allocator held during the burst. RSS is reported beside it.
        const before = await settledMemoryMb();
        const result = await pushRawRequest(small.baseUrl, head, { pushBytes: 200 * mib, piece });
        const after = await settledMemoryMb();
        const grown = after.live - before.live;
        expect(result.status, result.text.slice(0, 300)).toBe(413);
        expect(result.closed).toBe(true);
        const error = (rawResponseJson(result.text) as { error?: { message?: string } } | undefined)
          ?.error;
        expect(error?.message).toContain(String(limit));
        figures.push(
          `${path} (limit ${limit} B): 413 after ${result.answeredAfterMs.toFixed(1)} ms, ${(result.bodyBytesAccepted / mib).toFixed(2)} MiB accepted by the socket, live memory ${signedMb(grown)} MB (RSS ${signedMb(after.rss - before.rss)} MB)`,
        );
        // The time includes pushing the body up to the limit when chunked.
        expect(result.answeredAfterMs).toBeLessThanOrEqual(100);
        // What the kernel accepted bounds what the server read; loopback socket buffers add up to ~16 MiB.
        expect(result.bodyBytesAccepted).toBeLessThanOrEqual(limit + mib + 16 * mib);
        expect(grown).toBeLessThanOrEqual(10);
      }
      recordFigure(
        chunked ? 4 : 3,
        target.name,
        figures.join('; '),
        'answered <= 100 ms after headers; read <= limit + 1 MiB; memory +<= 10 MB',
      );
    };

    it(
      'row 3: a Content-Length over the limit is a 413 naming the limit, then close, while the client keeps pushing 200 MiB',
      overLimit(false),
      60_000,
    );
    it(
      'row 4: a chunked body is cut with 413 as soon as it passes the limit',
      overLimit(true),
      60_000,
    );

    it('row 5: a 17 KiB header is 431, Content-Length with Transfer-Encoding and two Content-Lengths are 400, in our envelope, then close', async () => {
      const cases = [
        {
          name: '17 KiB header',
          status: 431,
          head: `GET /v1/models HTTP/1.1\r\nHost: test\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
        },
        {
          name: 'CL+TE',
          status: 400,
          head: `POST /tokenize HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
        },
        {
          name: 'two CL',
          status: 400,
          head: `POST /tokenize HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}x`,
        },
      ];
      for (const entry of cases) {
        const result = await pushRawRequest(gateway.baseUrl, entry.head, { giveUpMs: 5_000 });
        expect(result.status, `${entry.name}: ${result.text.slice(0, 200)}`).toBe(entry.status);
        expect(result.closed, entry.name).toBe(true);
        const error = (
          rawResponseJson(result.text) as { error?: Record<string, unknown> } | undefined
        )?.error;
        expect(Object.keys(error ?? {}).sort(), entry.name).toEqual([
          'code',
          'message',
          'param',
          'type',
        ]);
      }
      expect((await client.request('GET', '/healthz', { anonymous: true })).status).toBe(200);
      recordFigure(5, target.name, '3/3 refused in the native envelope and closed', '100 %');
    });

    it('row 6: seven bad credentials on every authenticated route are 401 with WWW-Authenticate: Bearer, and never reach the upstream', async () => {
      const key = gateway.apiKey;
      const credentials: Array<string | undefined> = [
        undefined,
        'Bearer',
        'Bearer ig-wrong-key-0000000000000000',
        `Basic ${key}`,
        `Bearer ${key.slice(0, -1)}`,
        `Bearer ${key}x`,
        `Bearer ${'a'.repeat(4096)}`,
      ];
      const calls = upstream.requests.length;
      let checked = 0;
      for (const route of routeTable.filter((entry) => entry.auth)) {
        const path = concretePath(route.path);
        for (const credential of credentials) {
          const headers: Record<string, string> =
            credential === undefined ? {} : { authorization: credential };
          const body =
            route.method === 'GET' || route.method === 'DELETE'
              ? undefined
              : JSON.stringify(validBodies[path] ?? {});
          const response = await fetch(`${gateway.baseUrl}${path}`, {
            method: route.method,
            headers: {
              ...headers,
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            body,
          });
          const reply = await toJsonReply(response);
          expectErrorEnvelope(reply, path, 401);
          expect(reply.headers.get('www-authenticate'), `${route.method} ${path}`).toBe('Bearer');
          checked += 1;
        }
      }
      expect(upstream.requests.length).toBe(calls);
      recordFigure(
        6,
        target.name,
        `${checked}/${checked} answered 401 + WWW-Authenticate: Bearer, 0 upstream calls`,
        '100 %',
      );
    }, 60_000);

    it('row 9: oversized and unreadable images are 400 naming the field, fast and without decoding', async () => {
      const cases = [
        {
          name: 'PNG IHDR 4097x10',
          url: `data:image/png;base64,${pngHeader(4097, 10).toString('base64')}`,
        },
        {
          name: 'JPEG SOF 5000 px wide',
          url: `data:image/jpeg;base64,${jpegHeader(5000, 10).toString('base64')}`,
        },
        {
          name: 'truncated PNG header',
          url: `data:image/png;base64,${pngHeader(10, 10).subarray(0, 20).toString('base64')}`,
        },
      ];
      let before = await settledMemoryMb();
      const times: number[] = [];
      const calls = upstream.requests.length;
      // Round 0 warms up (as row 1 does); live memory is compared over the 20 rounds after it.
      for (let round = 0; round <= 20; round += 1) {
        if (round === 1) before = await settledMemoryMb();
        for (const entry of cases) {
          const body = {
            model: 'alpha-image-edit',
            prompt: 'blue',
            images: [{ image_url: entry.url }],
            size: '16x16',
            quality: 'low',
            output_format: 'png',
          };
          const startedAt = performance.now();
          const reply = await client.postJson('/v1/images/edits', body);
          times.push(performance.now() - startedAt);
          expectNativeError(reply, 400, { param: 'images[0].image_url' });
        }
        const startedAt = performance.now();
        const generation = await client.postJson('/v1/images/generations', {
          ...validBodies['/v1/images/generations'],
          size: '2048x1025',
        });
        times.push(performance.now() - startedAt);
        expectNativeError(generation, 400, { param: 'size' });
      }
      expect(upstream.requests.length).toBe(calls);
      const after = await settledMemoryMb();
      const grown = after.live - before.live;
      const median = quantile(times, 0.5);
      recordFigure(
        9,
        target.name,
        `${times.length} requests: median ${median.toFixed(2)} ms, p99 ${quantile(times, 0.99).toFixed(2)} ms, live memory ${signedMb(grown)} MB (RSS ${signedMb(after.rss - before.rss)} MB)`,
        '< 5 ms per request, memory flat',
      );
      // Client-side time over loopback on a shared machine: the median carries the bound, doubled.
      expect(median).toBeLessThan(10);
      expect(grown).toBeLessThanOrEqual(10);
    }, 60_000);

    it('row 25: vLLM-only fields (mass assignment) are refused or dropped, and never reach the upstream', async () => {
      const fields: Record<string, unknown> = {
        chat_template: '{{ secrets }}',
        chat_template_kwargs: { chat_template: '{{ secrets }}' },
        mm_processor_kwargs: { do_resize: false },
        kv_transfer_params: { remote_host: '10.0.0.1' },
      };
      const outcomes: string[] = [];
      for (const [name, value] of Object.entries(fields)) {
        const calls = upstream.requests.length;
        const reply = await client.postJson('/v1/chat/completions', {
          ...validBodies['/v1/chat/completions'],
          [name]: value,
        });
        if (reply.status === 400) outcomes.push(`${name}: 400`);
        else {
          expect(reply.status).toBe(200);
          expect(reply.headers.get('x-infergate-ignored-params') ?? '').toContain(name);
          outcomes.push(`${name}: dropped, listed`);
        }
        for (const seen of upstream.requests.slice(calls)) {
          expect(seen.rawBody).not.toContain('chat_template');
          expect(seen.rawBody).not.toContain(name);
        }
      }
      recordFigure(25, target.name, outcomes.join(', '), 'upstream body never contains them');
    });
  });
}

/** A PNG signature and IHDR chunk declaring width x height (CRC included), with no pixel data. */
export function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const type = Buffer.from('IHDR', 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, ihdr])), 0);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(13, 0);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    length,
    type,
    ihdr,
    crc,
  ]);
}

/** A JPEG SOI and baseline SOF0 segment declaring width x height, with no scan data. */
export function jpegHeader(width: number, height: number): Buffer {
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof]);
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
