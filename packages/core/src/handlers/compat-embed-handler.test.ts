import { describe, expect, it } from 'vitest';
import { resolveGatewayConfig } from '../config/resolve-gateway-config.js';
import { compatEmbedHandler } from './compat-embed-handler.js';
import type { UpstreamCall, UpstreamTarget } from '../ports/ports.js';
import { fakeUpstream, jsonInput, testContext } from './test-ports.js';
import type { CannedReply, UpstreamResponder } from './test-ports.js';
import { bodyText } from '../http/body-text.js';

const model = 'alpha3-vl-embedding-8b';

function crc32(bytes: readonly number[]): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const be32 = (value: number) => [
  (value >>> 24) & 0xff,
  (value >>> 16) & 0xff,
  (value >>> 8) & 0xff,
  value & 0xff,
];

/** A PNG up to its IHDR chunk (PNG spec 5.2, 11.2.2): signature, length 13, "IHDR", fields, CRC. */
function pngDataUrl(width: number, height: number, bitDepth: number): string {
  const chunk = [0x49, 0x48, 0x44, 0x52, ...be32(width), ...be32(height), bitDepth, 6, 0, 0, 0];
  const bytes = [
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...be32(13),
    ...chunk,
    ...be32(crc32(chunk)),
  ];
  return `data:image/png;base64,${btoa(String.fromCharCode(...bytes))}`;
}

/** vLLM answers: a text batch gets vectors [10+i, ...], an image (chat form) call gets [100, ...]. */
function vllm(call: UpstreamCall): CannedReply {
  const body = call.body as { input?: string[]; messages?: unknown[]; dimensions?: number };
  const size = body.dimensions ?? 2;
  const vectors = body.input
    ? body.input.map((_, index) => new Array<number>(size).fill(10 + index))
    : [new Array<number>(size).fill(100)];
  return {
    body: {
      id: 'embd-1',
      object: 'list',
      data: vectors.map((embedding, index) => ({ index, object: 'embedding', embedding })),
      usage: { prompt_tokens: 3 * vectors.length, total_tokens: 3 * vectors.length },
    },
  };
}

async function run(
  body: unknown,
  respond: UpstreamResponder = vllm,
  target: UpstreamTarget = { protocol: 'openai', model: 'served-vl' },
  signal?: AbortSignal,
) {
  const upstream = fakeUpstream({ [model]: target }, respond);
  const result = await compatEmbedHandler(
    jsonInput(body, { requestId: 'req-42', signal }),
    testContext({ upstream }),
  );
  if (result.kind !== 'json') throw new Error('expected JSON');
  return {
    result,
    body: JSON.parse(bodyText(result.body)) as Record<string, unknown>,
    calls: upstream.calls,
  };
}

async function failure(body: unknown, respond?: UpstreamResponder, target?: UpstreamTarget) {
  try {
    await run(body, respond, target);
  } catch (error) {
    return error as { status: number; code: string; param: string | null; message: string };
  }
  throw new Error('expected a failure');
}

const meta = { api_version: { version: '2', is_experimental: true } };

describe('compatEmbedHandler', () => {
  it('embeds texts in one batched /v1/embeddings call and answers the compat-style object', async () => {
    const { result, body, calls } = await run({
      model,
      input_type: 'search_document',
      texts: ['alpha', 'beta'],
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      path: '/v1/embeddings',
      stream: false,
      body: { model: 'served-vl', input: ['alpha', 'beta'], encoding_format: 'float' },
    });
    expect(body).toEqual({
      id: 'req-42',
      embeddings: {
        float: [
          [10, 10],
          [11, 11],
        ],
      },
      texts: ['alpha', 'beta'],
      meta: { ...meta, billed_units: { input_tokens: 6 } },
      model,
      usage: { billed_units: { input_tokens: 6 } },
      response_type: 'embeddings_by_type',
    });
    expect(result.meta).toEqual({ model, endpoint: 'fake-1', inputTokens: 6 });
    expect(result.headers['x-infergate-ignored-params']).toBeUndefined();
  });

  it('joins the text blocks of one input with a newline', async () => {
    const { calls, body } = await run({
      model,
      input_type: 'search_query',
      inputs: [
        {
          content: [
            { type: 'text', text: 'one' },
            { type: 'text', text: 'two' },
          ],
        },
      ],
    });
    expect((calls[0]?.body as { input: string[] }).input).toEqual(['one\ntwo']);
    expect(body.texts).toEqual(['one\ntwo']);
  });

  it('sends an image input in vLLM chat form and reports each image from its header', async () => {
    const url = pngDataUrl(640, 480, 8);
    const content = [
      { type: 'image_url', image_url: { url } },
      { type: 'text', text: 'caption' },
    ];
    const { calls, body } = await run({ model, input_type: 'image', inputs: [{ content }] });
    expect(calls[0]?.body).toEqual({
      model: 'served-vl',
      messages: [{ role: 'user', content }],
      encoding_format: 'float',
    });
    expect(body.texts).toEqual([]);
    expect(body.images).toEqual([{ width: 640, height: 480, format: 'png', bit_depth: 8 }]);
    expect(body.meta).toEqual({ ...meta, billed_units: { input_tokens: 3, images: 1 } });
    expect(body.usage).toEqual({ billed_units: { input_tokens: 3, images: 1 } });
  });

  it('keeps input order when text and image inputs go in different calls, with output_dimension as dimensions', async () => {
    const image = { content: [{ type: 'image_url', image_url: { url: pngDataUrl(16, 9, 16) } }] };
    const { calls, body } = await run({
      model,
      input_type: 'search_document',
      output_dimension: 256,
      inputs: [
        { content: [{ type: 'text', text: 'a' }] },
        image,
        { content: [{ type: 'text', text: 'b' }] },
      ],
    });
    expect(calls).toHaveLength(2);
    for (const call of calls) expect((call.body as { dimensions: number }).dimensions).toBe(256);
    const vectors = (body.embeddings as { float: number[][] }).float;
    expect(vectors.map((vector) => [vector[0], vector.length])).toEqual([
      [10, 256],
      [100, 256],
      [11, 256],
    ]);
    expect(body.texts).toEqual(['a', 'b']);
    expect(body.images).toEqual([{ width: 16, height: 9, format: 'png', bit_depth: 16 }]);
    expect((body.meta as { billed_units: unknown }).billed_units).toEqual({
      input_tokens: 9,
      images: 1,
    });
  });

  it('answers float and base64 (little-endian float32) when both are asked for', async () => {
    const { body } = await run(
      { model, input_type: 'search_document', texts: ['a'], embedding_types: ['float', 'base64'] },
      () => ({
        body: {
          data: [{ index: 0, embedding: [0.1, -3] }],
          usage: { prompt_tokens: 1, total_tokens: 1 },
        },
      }),
    );
    const embeddings = body.embeddings as { float: number[][]; base64: string[] };
    expect(embeddings.float).toEqual([[0.1, -3]]);
    const bytes = Uint8Array.from(atob(embeddings.base64[0] ?? ''), (character) =>
      character.charCodeAt(0),
    );
    const view = new DataView(bytes.buffer);
    expect([view.getFloat32(0, true), view.getFloat32(4, true)]).toEqual([Math.fround(0.1), -3]);
  });

  it('refuses output_dimension outside the allowed list and gamma-m3 on this endpoint', async () => {
    expect(
      await failure({ model, input_type: 'search_document', texts: ['a'], output_dimension: 1000 }),
    ).toMatchObject({
      status: 400,
      param: 'output_dimension',
    });
    expect(
      await failure({ model: 'gamma-m3', input_type: 'search_document', texts: ['a'] }),
    ).toMatchObject({ status: 400, code: 'model_not_supported' });
  });

  it('refuses an image given by URL, naming the field, without calling the upstream', async () => {
    let called = false;
    const error = await failure(
      {
        model,
        input_type: 'image',
        inputs: [
          {
            content: [
              { type: 'text', text: 'x' },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            ],
          },
        ],
      },
      (call) => {
        called = true;
        return vllm(call);
      },
    );
    expect(error).toMatchObject({ status: 400, param: 'inputs[0].content[1].image_url.url' });
    expect(called).toBe(false);
  });

  it('aborts the other calls when one fails, and answers the mapped failure', async () => {
    const respond: UpstreamResponder = (call) => {
      if ((call.body as { messages?: unknown }).messages)
        return { status: 500, body: { detail: 'boom' } };
      return new Promise((_, reject) =>
        call.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
      );
    };
    const upstream = fakeUpstream({ [model]: { protocol: 'openai', model: 'served-vl' } }, respond);
    const body = {
      model,
      input_type: 'search_document',
      inputs: [
        { content: [{ type: 'text', text: 'a' }] },
        { content: [{ type: 'image_url', image_url: { url: pngDataUrl(2, 2, 8) } }] },
      ],
    };
    await expect(
      compatEmbedHandler(jsonInput(body), testContext({ upstream })),
    ).rejects.toMatchObject({ status: 502 });
    expect(upstream.calls[0]?.signal.aborted).toBe(true);
  });

  it('passes a client abort on to the upstream calls', async () => {
    const controller = new AbortController();
    controller.abort();
    const { calls } = await run(
      { model, input_type: 'search_document', texts: ['a'] },
      vllm,
      undefined,
      controller.signal,
    );
    expect(calls[0]?.signal.aborted).toBe(true);
  });

  it('names truncate and max_tokens in x-infergate-ignored-params, since /v1/embeddings cannot honour them', async () => {
    const { result } = await run({
      model,
      input_type: 'search_document',
      texts: ['a'],
      truncate: 'END',
      max_tokens: 100,
    });
    expect(result.headers['x-infergate-ignored-params']).toBe('truncate, max_tokens');
  });

  it('embeds text over TEI but refuses images there (TEI embeds text only) as a server-side failure', async () => {
    const tei: UpstreamTarget = { protocol: 'tei', model: 'served-tei' };
    const { calls } = await run({ model, input_type: 'search_document', texts: ['a'] }, vllm, tei);
    expect(calls[0]?.body).toEqual({ model: 'served-tei', input: ['a'], encoding_format: 'float' });
    expect(
      await failure(
        {
          model,
          input_type: 'image',
          inputs: [{ content: [{ type: 'image_url', image_url: { url: pngDataUrl(2, 2, 8) } }] }],
        },
        vllm,
        tei,
      ),
    ).toMatchObject({ status: 502 });
  });

  describe('body limits (docs/design.md: text only is a JSON-only body, images an image-bearing one)', () => {
    const limit = 4096;
    const config = resolveGatewayConfig({ limits: { body_json_bytes: limit } }, {});
    const send = async (body: unknown) => {
      const upstream = fakeUpstream({ [model]: { protocol: 'openai', model: 'served-vl' } }, vllm);
      try {
        const result = await compatEmbedHandler(jsonInput(body), testContext({ upstream, config }));
        return { status: result.status, calls: upstream.calls.length };
      } catch (error) {
        return {
          status: (error as { status: number }).status,
          message: (error as Error).message,
          calls: upstream.calls.length,
        };
      }
    };
    const text = (size: number) => ({
      model,
      input_type: 'search_document',
      inputs: [{ content: [{ type: 'text', text: 'x'.repeat(size) }] }],
    });

    it('refuses a text-only body over body_json_bytes with 413, before any upstream call', async () => {
      expect(await send(text(limit))).toMatchObject({
        status: 413,
        calls: 0,
        message: `The request body exceeds the limit of ${limit} bytes for this endpoint.`,
      });
      expect(
        await send({ model, input_type: 'search_document', texts: ['y'.repeat(limit)] }),
      ).toMatchObject({ status: 413, calls: 0 });
    });

    it('counts bytes, not characters', async () => {
      // 1,400 three-byte characters: 4,200 bytes of text in 1,400 code units.
      expect(
        await send({
          ...text(0),
          inputs: [{ content: [{ type: 'text', text: '€'.repeat(1400) }] }],
        }),
      ).toMatchObject({ status: 413 });
    });

    it('refuses a body that only mentions image_url in its text', async () => {
      expect(
        await send({
          ...text(limit),
          inputs: [{ content: [{ type: 'text', text: `"image_url" ${'x'.repeat(limit)}` }] }],
        }),
      ).toMatchObject({
        status: 413,
        calls: 0,
      });
    });

    it('takes a text-only body within the limit, and a body with an image over it', async () => {
      expect(await send(text(limit - 200))).toMatchObject({ status: 200 });
      const image = { type: 'image_url', image_url: { url: pngDataUrl(16, 16, 8) } };
      expect(
        await send({
          model,
          input_type: 'image',
          inputs: [{ content: [image, { type: 'text', text: 'z'.repeat(limit) }] }],
        }),
      ).toMatchObject({
        status: 200,
      });
    });
  });
});
