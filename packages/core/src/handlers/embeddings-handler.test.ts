import { describe, expect, it } from 'vitest';
import type { UpstreamCall } from '../ports/ports.js';
import { embeddingsHandler } from './embeddings-handler.js';
import { fakeUpstream, fixedClock, jsonInput, testContext } from './test-ports.js';
import type { CannedReply, UpstreamResponder } from './test-ports.js';
import { bodyText } from '../http/body-text.js';

const targets = {
  'alpha3-vl-embedding-8b': { protocol: 'openai', model: 'served-alpha3' },
  'gamma-m3': { protocol: 'tei', model: 'served-gamma' },
} as const;

/** vLLM-shaped answer with one vector per input of `dimensions` components. */
function vllmReply(call: UpstreamCall, dimensions = 3): CannedReply {
  const body = call.body as { input: unknown };
  const count =
    Array.isArray(body.input) && typeof body.input[0] !== 'number' ? body.input.length : 1;
  const data = Array.from({ length: count }, (_, index) => ({
    index,
    object: 'embedding',
    embedding: Array.from({ length: dimensions }, (_, at) => (index + 1) * 0.1 + at),
  }));
  return {
    body: {
      id: 'embd-deadbeef',
      object: 'list',
      created: 5,
      model: 'served-alpha3',
      data,
      usage: { prompt_tokens: 4 * count, total_tokens: 4 * count, completion_tokens: 0 },
    },
  };
}

async function run(
  body: unknown,
  respond: UpstreamResponder = (call) => vllmReply(call),
  identity?: { name: string; models?: string[] },
) {
  const upstream = fakeUpstream(targets, respond);
  const context = testContext({ upstream, identity, clock: fixedClock(1_767_225_600_900) });
  const result = await embeddingsHandler(jsonInput(body), context);
  if (result.kind !== 'json') throw new Error('expected JSON');
  return {
    result,
    body: JSON.parse(bodyText(result.body)) as Record<string, unknown>,
    calls: upstream.calls,
  };
}

async function failure(
  body: unknown,
  respond?: UpstreamResponder,
  identity?: { name: string; models?: string[] },
) {
  try {
    await run(body, respond, identity);
  } catch (error) {
    return error as {
      status: number;
      code: string;
      param: string | null;
      message: string;
      headers: Record<string, string>;
    };
  }
  throw new Error('expected a failure');
}

function decodeLittleEndianFloat32(text: string): number[] {
  const bytes = Uint8Array.from(atob(text), (character) => character.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  return Array.from({ length: bytes.length / 4 }, (_, index) => view.getFloat32(index * 4, true));
}

describe('embeddingsHandler', () => {
  it('asks the upstream for floats on /v1/embeddings under its model name and answers the OpenAI-style object', async () => {
    const { result, body, calls } = await run({
      model: 'alpha3-vl-embedding-8b',
      input: ['a', 'b'],
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      modelId: 'alpha3-vl-embedding-8b',
      path: '/v1/embeddings',
      stream: false,
      requestId: 'req-test-1',
    });
    expect(calls[0]?.body).toEqual({
      model: 'served-alpha3',
      input: ['a', 'b'],
      encoding_format: 'float',
    });
    expect(result).toMatchObject({
      status: 200,
      headers: { 'content-type': 'application/json' },
      meta: { model: 'alpha3-vl-embedding-8b', endpoint: 'fake-1', inputTokens: 8 },
    });
    expect(body).toEqual({
      id: 'embd-deadbeef',
      object: 'list',
      created: 1_767_225_600,
      model: 'alpha3-vl-embedding-8b',
      data: [
        { index: 0, object: 'embedding', embedding: [0.1, 1.1, 2.1] },
        { index: 1, object: 'embedding', embedding: [0.2, 1.2, 2.2] },
      ],
      usage: { prompt_tokens: 8, total_tokens: 8, completion_tokens: 0 },
    });
  });

  it('asks the upstream for base64, and encodes numbers itself as little-endian float32 when the upstream answers with those', async () => {
    const { body, calls } = await run({
      model: 'alpha3-vl-embedding-8b',
      input: 'a',
      encoding_format: 'base64',
    });
    expect((calls[0]?.body as { encoding_format: string }).encoding_format).toBe('base64');
    const data = body.data as { embedding: string }[];
    expect(typeof data[0]?.embedding).toBe('string');
    expect(decodeLittleEndianFloat32(data[0]?.embedding ?? '')).toEqual(
      [0.1, 1.1, 2.1].map((value) => Math.fround(value)),
    );
  });

  it('forwards token-id input and user unchanged', async () => {
    const { calls } = await run({
      model: 'alpha3-vl-embedding-8b',
      input: [[1, 2], [3]],
      user: 'u-7',
    });
    expect(calls[0]?.body).toEqual({
      model: 'served-alpha3',
      input: [[1, 2], [3]],
      encoding_format: 'float',
      user: 'u-7',
    });
  });

  it('generates an embd-<hex> id for TEI, which sends none', async () => {
    const tei = (): CannedReply => ({
      body: {
        object: 'list',
        model: 'x',
        data: [{ object: 'embedding', index: 0, embedding: [1, 2] }],
        usage: { prompt_tokens: 1, total_tokens: 1 },
      },
    });
    const { body, calls } = await run({ model: 'gamma-m3', input: 'hello' }, tei);
    expect(calls[0]?.body).toEqual({
      model: 'served-gamma',
      input: 'hello',
      encoding_format: 'float',
    });
    expect(body.id).toMatch(/^embd-[0-9a-f]{32}$/);
    expect(body.created).toBe(1_767_225_600);
  });

  it('sends dimensions for alpha3-vl-embedding-8b within 128..4096 and refuses values outside', async () => {
    const { calls } = await run(
      { model: 'alpha3-vl-embedding-8b', input: 'a', dimensions: 200 },
      (call) => vllmReply(call, 200),
    );
    expect((calls[0]?.body as { dimensions: number }).dimensions).toBe(200);
    expect(
      await failure({ model: 'alpha3-vl-embedding-8b', input: 'a', dimensions: 64 }),
    ).toMatchObject({ status: 400, param: 'dimensions' });
    expect(
      await failure({ model: 'alpha3-vl-embedding-8b', input: 'a', dimensions: 8192 }),
    ).toMatchObject({ status: 400, param: 'dimensions' });
  });

  it('refuses dimensions other than 1024 on gamma-m3 before calling the upstream', async () => {
    let called = false;
    const error = await failure({ model: 'gamma-m3', input: 'a', dimensions: 512 }, (call) => {
      called = true;
      return vllmReply(call);
    });
    expect(error).toMatchObject({ status: 400, param: 'dimensions' });
    expect(called).toBe(false);
  });

  it('accepts dimensions: 1024 on gamma-m3 (its fixed size) and sends none upstream', async () => {
    const { calls } = await run({ model: 'gamma-m3', input: 'a', dimensions: 1024 });
    expect(calls[0]?.body).toEqual({ model: 'served-gamma', input: 'a', encoding_format: 'float' });
  });

  it('takes encoding_format, dimensions and user null as not given', async () => {
    const { body, calls } = await run({
      model: 'alpha3-vl-embedding-8b',
      input: 'a',
      encoding_format: null,
      dimensions: null,
      user: null,
    });
    expect(calls[0]?.body).toEqual({
      model: 'served-alpha3',
      input: 'a',
      encoding_format: 'float',
    });
    expect(Array.isArray((body.data as Array<{ embedding: unknown }>)[0]?.embedding)).toBe(true);
  });

  it('is a 502 when the upstream ignores the requested dimensions', async () => {
    expect(
      await failure({ model: 'alpha3-vl-embedding-8b', input: 'a', dimensions: 256 }, (call) =>
        vllmReply(call, 4096),
      ),
    ).toMatchObject({ status: 502 });
  });

  it('resolves and authorizes the model: 404 unknown, 400 wrong endpoint, 403 not allowed, 503 not configured', async () => {
    expect(await failure({ model: 'nope', input: 'a' })).toMatchObject({
      status: 404,
      code: 'model_not_found',
    });
    expect(await failure({ model: 'gamma-reranker-v2-m3', input: 'a' })).toMatchObject({
      status: 400,
      code: 'model_not_supported',
    });
    expect(
      await failure({ model: 'gamma-m3', input: 'a' }, undefined, {
        name: 'k',
        models: ['alpha3-vl-embedding-8b'],
      }),
    ).toMatchObject({
      status: 403,
      code: 'model_not_allowed',
    });
    const allowed = await run({ model: 'alpha3-vl-embedding-8b', input: 'a' }, undefined, {
      name: 'k',
      models: ['alpha3-vl-embedding-8b'],
    });
    expect(allowed.result.status).toBe(200);
    const upstream = fakeUpstream({}, (call) => vllmReply(call));
    await expect(
      embeddingsHandler(jsonInput({ model: 'gamma-m3', input: 'a' }), testContext({ upstream })),
    ).rejects.toMatchObject({
      status: 503,
      code: 'model_not_configured',
    });
  });

  it('maps upstream failures: 4xx passes with its message, 429 keeps Retry-After, 5xx and bad bodies are 502', async () => {
    const rejected = await failure({ model: 'alpha3-vl-embedding-8b', input: 'a' }, () => ({
      status: 400,
      body: {
        error: { message: 'input too long for http://10.1.2.3:8000', type: 'BadRequestError' },
      },
    }));
    expect(rejected).toMatchObject({ status: 400, code: 'upstream_rejected' });
    expect(rejected.message).not.toContain('10.1.2.3');
    expect(
      await failure({ model: 'gamma-m3', input: 'a' }, () => ({
        status: 429,
        headers: { 'retry-after': '7' },
        body: { error: 'Model is overloaded', error_type: 'Overloaded' },
      })),
    ).toMatchObject({ status: 429, headers: { 'retry-after': '7' } });
    expect(
      await failure({ model: 'gamma-m3', input: 'a' }, () => ({
        status: 500,
        body: { detail: 'boom' },
      })),
    ).toMatchObject({ status: 502 });
    expect(
      await failure({ model: 'gamma-m3', input: 'a' }, () => ({ body: { unexpected: true } })),
    ).toMatchObject({ status: 502, code: 'upstream_error' });
  });

  it('answers 400s for bad bodies before any upstream call', async () => {
    expect(await failure({ model: 'gamma-m3', input: [] })).toMatchObject({
      status: 400,
      param: 'input',
    });
    expect(await failure('{"model":')).toMatchObject({ status: 400, code: 'invalid_json' });
  });

  it('is a 502 when the upstream answers a stream where JSON was asked for, and releases the stream', async () => {
    let released = false;
    async function* events() {
      try {
        yield { data: '{}' };
      } finally {
        released = true;
      }
    }
    const iterator = events();
    await iterator.next();
    const error = await failure({ model: 'gamma-m3', input: 'a' }, () => ({
      kind: 'stream',
      status: 200,
      headers: {},
      events: iterator,
      endpoint: 'fake-1',
    }));
    expect(error).toMatchObject({ status: 502 });
    expect(released).toBe(true);
  });
});
