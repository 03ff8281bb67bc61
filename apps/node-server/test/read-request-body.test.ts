import { Buffer } from 'node:buffer';
import {
  pngDataUrl,
  rawHttpRequest,
  startRecordingUpstream,
  upstreamsServingEverything,
  type RecordingUpstream,
} from '@infergate/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeGateway, type NodeGateway } from './start-node-gateway.js';

/** `bytes` cut into pieces of `size` bytes (the last one shorter), so a multi-byte character may fall across two. */
function piecesOf(bytes: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += size)
    pieces.push(bytes.subarray(start, start + size));
  return pieces;
}

// The node-server's body reader (node-runtime's readRequestBody), through real sockets: however a body is
// framed and cut, the upstream gets what the client sent.
describe('node-server reads JSON bodies whole, however they arrive', () => {
  let upstream: RecordingUpstream;
  let gateway: NodeGateway;

  beforeAll(async () => {
    upstream = await startRecordingUpstream();
    gateway = await startNodeGateway({ upstreams: upstreamsServingEverything(upstream.url) });
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  const send = (path: string, pieces: Buffer[], framing: 'length' | 'chunked') =>
    rawHttpRequest(`${gateway.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gateway.apiKey}`,
        'content-type': 'application/json',
        ...(framing === 'length'
          ? { 'content-length': String(pieces.reduce((sum, piece) => sum + piece.length, 0)) }
          : {}),
      },
      chunks: pieces,
    });

  it.each(['length', 'chunked'] as const)(
    'decodes characters cut across writes (%s framing)',
    async (framing) => {
      const content = `caf\u00e9 \u{1F600} ${'\u00e9\u4e2d'.repeat(5_000)}`;
      const body = Buffer.from(
        JSON.stringify({
          model: 'alpha36-35b-a3b-instruct',
          messages: [{ role: 'user', content }],
        }),
      );
      const before = upstream.requestsTo('/v1/chat/completions').length;
      // 7-byte writes: every 2-, 3- and 4-byte character is cut somewhere.
      const response = await send('/v1/chat/completions', piecesOf(body, 7), framing);
      expect(response.status).toBe(200);
      const seen = upstream.requestsTo('/v1/chat/completions').slice(before);
      expect(seen).toHaveLength(1);
      expect((seen[0]?.body as { messages: Array<{ content: string }> }).messages[0]?.content).toBe(
        content,
      );
    },
  );

  it.each(['length', 'chunked'] as const)(
    'forwards a multi-megabyte image edit byte for byte (%s framing)',
    async (framing) => {
      // Bytes after the PNG's last chunk keep it readable while its data URL grows to about 3 MiB.
      const png = Buffer.concat([
        Buffer.from(pngDataUrl.slice(pngDataUrl.indexOf(',') + 1), 'base64'),
        Buffer.alloc(2_300_000, 0x5a),
      ]);
      const padded = `data:image/png;base64,${png.toString('base64')}`;
      const body = Buffer.from(
        JSON.stringify({
          model: 'alpha-image-edit',
          prompt: 'make it blue',
          images: [{ image_url: padded }],
          output_format: 'png',
          quality: 'low',
          size: '64x64',
        }),
      );
      const before = upstream.requestsTo('/v1/images/edits').length;
      const response = await send('/v1/images/edits', piecesOf(body, 65_536), framing);
      expect(response.status).toBe(200);
      const seen = upstream.requestsTo('/v1/images/edits').slice(before);
      expect(seen).toHaveLength(1);
      expect(
        (seen[0]?.body as { images: Array<{ image_url: string }> }).images[0]?.image_url === padded,
      ).toBe(true);
      expect(seen[0]?.headers['content-length']).toBe(
        String(Buffer.byteLength(seen[0]?.rawBody ?? '')),
      );
    },
  );

  it.each(['length', 'chunked'] as const)(
    'forwards a multi-megabyte image edit sent as a multipart form byte for byte (%s framing)',
    async (framing) => {
      const png = Buffer.concat([
        Buffer.from(pngDataUrl.slice(pngDataUrl.indexOf(',') + 1), 'base64'),
        Buffer.alloc(2_300_000, 0x5a),
      ]);
      const boundary = '----form-cut-anywhere';
      const field = (name: string, value: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const body = Buffer.concat([
        Buffer.from(
          field('model', 'alpha-image-edit') +
            field('prompt', 'make it blue') +
            `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="in.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from(
          `\r\n${field('output_format', 'png')}${field('quality', 'low')}${field('size', '64x64')}--${boundary}--\r\n`,
        ),
      ]);
      const before = upstream.requestsTo('/v1/images/edits').length;
      // Writes of an odd size: the boundary and the file's base64 triples are cut anywhere.
      const response = await rawHttpRequest(`${gateway.baseUrl}/v1/images/edits`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${gateway.apiKey}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          ...(framing === 'length' ? { 'content-length': String(body.length) } : {}),
        },
        chunks: piecesOf(body, 65_537),
      });
      expect(response.status, response.body).toBe(200);
      const seen = upstream.requestsTo('/v1/images/edits').slice(before);
      expect(seen).toHaveLength(1);
      expect(
        (seen[0]?.body as { images: Array<{ image_url: string }> }).images[0]?.image_url ===
          `data:image/png;base64,${png.toString('base64')}`,
      ).toBe(true);
      expect(seen[0]?.headers['content-length']).toBe(
        String(Buffer.byteLength(seen[0]?.rawBody ?? '')),
      );
    },
  );
});
