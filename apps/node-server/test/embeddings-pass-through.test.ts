import { Buffer } from 'node:buffer';
import {
  embeddingsResponse,
  startRecordingUpstream,
  upstreamsServingEverything,
  type RecordingUpstream,
} from '@infergate/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startNodeGateway, type NodeGateway } from './start-node-gateway.js';

type Json = Record<string, unknown>;

// Every JSON number form, with the blanks a non-compact writer puts in: none of them may change on the way.
const vectorTexts = [
  '-0.0,1e-05,-2.5E+3,7,0,-1.25e-7',
  ' 0.10000000149011612 , -0.0123456789012345678,3.4028234663852886e+38,123 ,-1,5e-324 ',
];
const vllmText = `{"id":"embd-00112233445566778899aabbccddeeff","object":"list","created":1767225600,"model":"served","data":[{"index":1,"object":"embedding","embedding":[${vectorTexts[1]}]},{"index":0,"object":"embedding","embedding":[${vectorTexts[0]}]}],"usage":{"prompt_tokens":9,"total_tokens":9,"completion_tokens":0,"prompt_tokens_details":null}}`;
// TEI's OpenAI-compatible answer: no id, no created, pretty-printed here.
const teiText = JSON.stringify(
  {
    object: 'list',
    data: [{ object: 'embedding', embedding: [0.5, -0.25, 1e-5], index: 0 }],
    model: 'x',
    usage: { prompt_tokens: 2, total_tokens: 2 },
  },
  null,
  2,
);

// An independent decoder: Buffer's reader, not the gateway's code.
function decodeFloat32(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  return Array.from({ length: bytes.length / 4 }, (_, index) => bytes.readFloatLE(index * 4));
}
const asFloat32 = (numbers: readonly number[]): number[] => Array.from(Float32Array.from(numbers));
// vLLM's base64 of a vector, independently encoded by Buffer (little-endian float32).
const base64Of = (values: readonly number[]): string =>
  Buffer.from(Float32Array.from(values).buffer).toString('base64');
const numbersOf = (text: string): number[] => JSON.parse(`[${text}]`) as number[];

describe('embeddings pass the upstream vectors through (node-server, recording upstream)', () => {
  let upstream: RecordingUpstream;
  let gateway: NodeGateway;
  let answer: string | undefined;

  beforeAll(async () => {
    upstream = await startRecordingUpstream({
      handlers: {
        'POST /v1/embeddings': (request, response) => {
          const body = request.body as {
            model: string;
            input: string[];
            dimensions?: number;
            encoding_format?: string;
          };
          // By default vLLM's shape from the testkit, in the form asked for; a test sets `answer` to send exact text.
          const text =
            answer ??
            JSON.stringify(
              embeddingsResponse(
                body.model,
                body.input,
                body.dimensions ?? 1024,
                body.encoding_format ?? 'float',
              ),
            );
          response.writeHead(200, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(text),
          });
          response.end(text);
        },
      },
    });
    gateway = await startNodeGateway({ upstreams: upstreamsServingEverything(upstream.url) });
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  beforeEach(() => {
    answer = undefined;
  });

  const post = async (path: string, body: Json) => {
    const response = await fetch(`${gateway.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    // The gateway declares the answer's length itself (core works it out without encoding it).
    if (response.status === 200)
      expect(Number(response.headers.get('content-length'))).toBe(bytes.byteLength);
    return { status: response.status, text: new TextDecoder().decode(bytes) };
  };

  it('answers float with the number text the upstream sent, byte for byte, in index order', async () => {
    answer = vllmText;
    const { status, text } = await post('/v1/embeddings', {
      model: 'alpha3-vl-embedding-8b',
      input: ['a', 'b'],
    });
    expect(status).toBe(200);
    expect(text).toContain(
      `"index":0,"object":"embedding","embedding":[${vectorTexts[0]}]},{"index":1,"object":"embedding","embedding":[${vectorTexts[1]}]}`,
    );
    const body = JSON.parse(text) as Json;
    expect(body).toMatchObject({
      id: 'embd-00112233445566778899aabbccddeeff',
      object: 'list',
      model: 'alpha3-vl-embedding-8b',
      usage: { prompt_tokens: 9, total_tokens: 9, completion_tokens: 0 },
    });
    expect(Object.is((body.data as { embedding: number[] }[])[0]?.embedding[0], -0)).toBe(true);
  });

  it('answers base64 with the float32 of each upstream number, little-endian, when the upstream answers a base64 call with numbers', async () => {
    answer = vllmText;
    const { status, text } = await post('/v1/embeddings', {
      model: 'alpha3-vl-embedding-8b',
      input: ['a', 'b'],
      encoding_format: 'base64',
    });
    expect(status).toBe(200);
    const data = (JSON.parse(text) as { data: { index: number; embedding: string }[] }).data;
    expect(data.map((item) => item.index)).toEqual([0, 1]);
    data.forEach((item, index) =>
      expect(decodeFloat32(item.embedding)).toEqual(asFloat32(numbersOf(vectorTexts[index] ?? ''))),
    );
    expect(Object.is(decodeFloat32(data[0]?.embedding ?? '')[0], -0)).toBe(true);
  });

  it("reads TEI's answer, which has no id and may have blanks", async () => {
    answer = teiText;
    const { status, text } = await post('/v1/embeddings', { model: 'gamma-m3', input: 'a' });
    expect(status).toBe(200);
    const body = JSON.parse(text) as { id: string; data: { embedding: number[] }[] };
    expect(body.id).toMatch(/^embd-[0-9a-f]{32}$/);
    expect(body.data[0]?.embedding).toEqual([0.5, -0.25, 1e-5]);
  });

  it('gives the openai client the same vectors with its default (base64) and with float', async () => {
    const client = new OpenAI({
      baseURL: `${gateway.baseUrl}/v1`,
      apiKey: gateway.apiKey,
      maxRetries: 0,
    });
    const input = ['first passage', 'second passage', 'third'];
    const expected = input.map(
      (text) =>
        (embeddingsResponse('m', [text], 1024, 'float').data as { embedding: number[] }[])[0]
          ?.embedding ?? [],
    );
    const byDefault = await client.embeddings.create({ model: 'gamma-m3', input });
    const asFloat = await client.embeddings.create({
      model: 'gamma-m3',
      input,
      encoding_format: 'float',
    });
    expect(byDefault.data.map((item) => item.embedding)).toEqual(expected.map(asFloat32));
    expect(asFloat.data.map((item) => item.embedding)).toEqual(expected);
    // The client's form is asked of the upstream: base64 by default, float when the client says so.
    const formats = upstream.requests
      .filter((request) => request.path === '/v1/embeddings')
      .map((request) => (request.body as Json).encoding_format);
    expect(formats.slice(-2)).toEqual(['base64', 'float']);
  });

  it("passes the upstream's base64 on byte for byte, in index order", async () => {
    // vLLM's base64 of the two vectors (independently encoded by Buffer), sent out of order.
    const encoded = vectorTexts.map((vector) => base64Of(numbersOf(vector)));
    answer = `{"id":"embd-00112233445566778899aabbccddeeff","object":"list","created":1,"model":"served","data":[{"index":1,"object":"embedding","embedding":"${encoded[1]}"},{"index":0,"object":"embedding","embedding":"${encoded[0]}"}],"usage":{"prompt_tokens":9,"total_tokens":9}}`;
    const { status, text } = await post('/v1/embeddings', {
      model: 'alpha3-vl-embedding-8b',
      input: ['a', 'b'],
      encoding_format: 'base64',
    });
    expect(status).toBe(200);
    expect(text).toContain(
      `"index":0,"object":"embedding","embedding":"${encoded[0]}"},{"index":1,"object":"embedding","embedding":"${encoded[1]}"}`,
    );
    expect((upstream.requests.at(-1)?.body as Json).encoding_format).toBe('base64');
  });

  // Two base64 vectors of the 128 dimensions asked for; each case breaks one thing.
  const floats128 = Array.from({ length: 128 }, (_, index) => (index - 64) / 8);
  const vector128 = base64Of(floats128);
  const base64Answer = (first: string) =>
    `{"data":[{"index":0,"embedding":"${first}"},{"index":1,"embedding":"${vector128}"}],"usage":{"prompt_tokens":2}}`;
  const brokenBase64: Array<[string, string]> = [
    [
      'a character outside the alphabet',
      base64Answer(`${vector128.slice(0, 4)}*${vector128.slice(5)}`),
    ],
    ['an escape in the string', base64Answer(`\\u0041${vector128.slice(6)}`)],
    ['a length that is not whole base64 quads', base64Answer(vector128.slice(1))],
    [
      'bytes that are not whole float32 values',
      base64Answer(Buffer.from(new Uint8Array(4 * 128 - 1)).toString('base64')),
    ],
    ['the wrong number of dimensions', base64Answer(base64Of(floats128.slice(1)))],
  ];
  it('reads the well-formed base64 answer those cases break', async () => {
    answer = base64Answer(vector128);
    const { status, text } = await post('/v1/embeddings', {
      model: 'alpha3-vl-embedding-8b',
      input: ['a', 'b'],
      dimensions: 128,
      encoding_format: 'base64',
    });
    expect(status).toBe(200);
    expect(
      (JSON.parse(text) as { data: { embedding: string }[] }).data.map((item) =>
        decodeFloat32(item.embedding),
      ),
    ).toEqual([floats128, floats128]);
  });

  it.each(brokenBase64)(
    'answers the 502 envelope for a base64 answer with %s',
    async (_name, text) => {
      answer = text;
      const response = await post('/v1/embeddings', {
        model: 'alpha3-vl-embedding-8b',
        input: ['a', 'b'],
        dimensions: 128,
        encoding_format: 'base64',
      });
      expect(response.status).toBe(502);
      expect(JSON.parse(response.text)).toMatchObject({ error: { code: 'upstream_error' } });
    },
  );

  it('answers the 502 envelope for base64 where the client asked for float', async () => {
    answer = base64Answer(vector128);
    const response = await post('/v1/embeddings', {
      model: 'alpha3-vl-embedding-8b',
      input: ['a', 'b'],
      dimensions: 128,
    });
    expect(response.status).toBe(502);
  });

  it('answers /compat/v2/embed float with the upstream text and base64 with its float32', async () => {
    answer = vllmText;
    const { status, text } = await post('/compat/v2/embed', {
      model: 'alpha3-vl-embedding-8b',
      texts: ['a', 'b'],
      input_type: 'search_document',
      embedding_types: ['float', 'base64'],
    });
    expect(status).toBe(200);
    expect(text).toContain(
      `"embeddings":{"float":[[${vectorTexts[0]}],[${vectorTexts[1]}]],"base64":[`,
    );
    const body = JSON.parse(text) as {
      embeddings: { base64: string[] };
      texts: string[];
      meta: { billed_units: Json };
      response_type: string;
    };
    expect(body.embeddings.base64.map(decodeFloat32)).toEqual(
      vectorTexts.map((vector) => asFloat32(numbersOf(vector))),
    );
    expect(body).toMatchObject({
      texts: ['a', 'b'],
      meta: { billed_units: { input_tokens: 9 } },
      response_type: 'embeddings_by_type',
    });
  });

  // Two vectors of the 128 dimensions asked for below; each case breaks one thing.
  const numbers128 = Array.from({ length: 128 }, (_, index) => String((index - 64) / 7)).join(',');
  const answer128 = (first: string) =>
    `{"data":[{"index":0,"embedding":[${first}]},{"index":1,"embedding":[${numbers128}]}],"usage":{"prompt_tokens":2}}`;
  const broken: Array<[string, string]> = [
    ['a non-number in an embedding', answer128(numbers128.replace(/^[^,]+/, '"x"'))],
    ['NaN in an embedding', answer128(numbers128.replace(/^[^,]+/, 'NaN'))],
    ['no data', '{"object":"list","usage":{"prompt_tokens":1,"total_tokens":1}}'],
    ['truncated JSON', answer128(numbers128).slice(0, 900)],
    ['a vector of the wrong length', answer128(numbers128.replace(/^[^,]+,/, ''))],
  ];
  it('reads the well-formed answer those cases break', async () => {
    answer = answer128(numbers128);
    expect(
      (
        await post('/v1/embeddings', {
          model: 'alpha3-vl-embedding-8b',
          input: ['a', 'b'],
          dimensions: 128,
        })
      ).status,
    ).toBe(200);
  });

  it.each(broken)(
    'answers the 502 envelope, never a part of the answer, for %s',
    async (_name, text) => {
      answer = text;
      for (const encoding_format of ['float', 'base64']) {
        const response = await post('/v1/embeddings', {
          model: 'alpha3-vl-embedding-8b',
          input: ['a', 'b'],
          dimensions: 128,
          encoding_format,
        });
        expect(response.status).toBe(502);
        expect(JSON.parse(response.text)).toEqual({
          error: {
            message: expect.stringMatching(/^The model server/),
            type: 'api_error',
            param: null,
            code: 'upstream_error',
          },
        });
      }
    },
  );
});
