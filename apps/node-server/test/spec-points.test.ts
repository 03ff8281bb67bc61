import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ContractClient,
  defaultUpstreamHandlers,
  embeddingsResponse,
  expectCompatError,
  expectNativeError,
  pngDataUrl,
  pngHeader,
  startRecordingUpstream,
  upstreamsServingEverything,
  writeJson,
  type RecordingUpstream,
  type UpstreamHandler,
} from '@infergate/testkit';
import { metricValue, readMetrics } from './read-metrics.js';
import { startNodeGateway, testMetricsKey, type NodeGateway } from './start-node-gateway.js';

/*
 * Spec points, each over real HTTP: the node-server in front of a recording
 * upstream, so what reaches the upstream is seen as well as what the client gets.
 */

type Json = Record<string, unknown>;

// Two keys with the same token limit: one spends it on a -pe request, the other on the plain model.
const peKey = 'key-limited-pe-0123456789';
const plainKey = 'key-limited-plain-0123456789';
const tokensPerMinute = 1_000_000;
const jsonLimit = 2 * 1024 * 1024;

describe('spec points through the node-server', () => {
  let upstream: RecordingUpstream;
  let gateway: NodeGateway;
  let client: ContractClient;
  let chatOverride: UpstreamHandler | undefined;

  beforeAll(async () => {
    const defaultChat = defaultUpstreamHandlers['POST /v1/chat/completions'];
    upstream = await startRecordingUpstream({
      handlers: {
        'POST /v1/chat/completions': (request, response) =>
          (chatOverride ?? defaultChat)?.(request, response),
        // The chat form of an image embedding (one message list, one vector), which the defaults do not answer.
        'POST /v1/embeddings': (request, response) => {
          const body = request.body as { model: string; messages?: unknown };
          if (body.messages === undefined)
            return defaultUpstreamHandlers['POST /v1/embeddings']?.(request, response);
          writeJson(response, 200, embeddingsResponse(body.model, ['image'], 8, undefined));
        },
      },
    });
    gateway = await startNodeGateway({
      upstreams: upstreamsServingEverything(upstream.url),
      keys: [
        { key: peKey, name: 'limited-pe', limits: { tokens_per_minute: tokensPerMinute } },
        { key: plainKey, name: 'limited-plain', limits: { tokens_per_minute: tokensPerMinute } },
      ],
      limits: { body_json_bytes: jsonLimit },
    });
    client = new ContractClient(gateway);
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  beforeEach(() => {
    upstream.clear();
    chatOverride = undefined;
  });

  const imageBody = {
    model: 'alpha-image',
    prompt: 'a red square',
    output_format: 'png',
    quality: 'low',
    size: '64x64',
  };

  describe('images: the "accepted and ignored" fields take any value', () => {
    it('generations with stream: true, background: true and output_compression: 150 get the JSON result, nothing of them forwarded', async () => {
      const odd = {
        stream: true,
        background: true,
        output_compression: 150,
        partial_images: 9,
        moderation: 1,
        style: { x: 1 },
        user: null,
      };
      const reply = await client.postJson('/v1/images/generations', { ...imageBody, ...odd });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(((reply.json as Json).data as Json[])[0]?.b64_json).toEqual(expect.any(String));
      const [call] = upstream.requestsTo('/v1/images/generations');
      for (const field of Object.keys(odd))
        expect(call?.body as Json, field).not.toHaveProperty(field);
    });

    it('edits with a mask object (file_id or a data URL), input_fidelity and stream: true: 200', async () => {
      const edit = { ...imageBody, model: 'alpha-image-edit', images: [{ image_url: pngDataUrl }] };
      for (const mask of [{ file_id: 'file-abc' }, { image_url: pngDataUrl }]) {
        const reply = await client.postJson('/v1/images/edits', {
          ...edit,
          mask,
          input_fidelity: 'high',
          stream: true,
          output_compression: 150,
          background: true,
        });
        expect(reply.status, reply.text).toBe(200);
      }
      for (const call of upstream.requestsTo('/v1/images/edits'))
        expect(call.body as Json).not.toHaveProperty('mask');
    });

    it('still refuses a URL as mask.image_url: every image field refuses URLs', async () => {
      const reply = await client.postJson('/v1/images/edits', {
        ...imageBody,
        model: 'alpha-image-edit',
        images: [{ image_url: pngDataUrl }],
        mask: { image_url: 'http://127.0.0.1:9/x.png' },
      });
      expectNativeError(reply, 400, { param: 'mask.image_url' });
    });
  });

  it('POST /v1/images/variations is 404 saying the endpoint is not offered, not that data is stored', async () => {
    const reply = await client.postJson('/v1/images/variations', {
      model: 'alpha-image',
      image: pngDataUrl,
    });
    const error = expectNativeError(reply, 404, { code: 'unsupported_endpoint' });
    expect(String(error.message)).toContain('not offered by this gateway');
    expect(String(error.message)).not.toContain('stores no data');
  });

  describe('/compat/v2/embed body limits (docs/design.md)', () => {
    const textBody = (size: number) => ({
      model: 'alpha3-vl-embedding-8b',
      input_type: 'search_document',
      inputs: [{ content: [{ type: 'text', text: 'a'.repeat(size) }] }],
    });

    it('holds text only to body_json_bytes: one byte over is 413 in the compat envelope, nothing sent upstream', async () => {
      const overhead = JSON.stringify(textBody(0)).length;
      const over = await client.postJson('/compat/v2/embed', textBody(jsonLimit - overhead + 1));
      const error = expectCompatError(over, 413);
      expect(String(error.message)).toContain(String(jsonLimit));
      expect(upstream.requests).toHaveLength(0);
      const within = await client.postJson('/compat/v2/embed', textBody(jsonLimit - overhead));
      expect(within.status, within.text.slice(0, 300)).toBe(200);
    });

    it('takes a body with an image over body_json_bytes (the image limit applies)', async () => {
      // A readable PNG header followed by 3 MiB of data: well over the JSON limit, far under the image one.
      const png = Buffer.concat([pngHeader(32, 32), Buffer.alloc(3 * 1024 * 1024)]);
      const url = `data:image/png;base64,${png.toString('base64')}`;
      const reply = await client.postJson('/compat/v2/embed', {
        model: 'alpha3-vl-embedding-8b',
        input_type: 'image',
        inputs: [{ content: [{ type: 'image_url', image_url: { url } }] }],
      });
      expect(reply.status, reply.text.slice(0, 300)).toBe(200);
      expect((reply.json as Json).images).toEqual([
        expect.objectContaining({ width: 32, height: 32, format: 'png' }),
      ]);
    });
  });

  describe('/v1/embeddings: dimensions and nulls', () => {
    it('accepts dimensions: 1024 on gamma-m3 (its fixed size) and sends none upstream; another value is 400 param dimensions', async () => {
      const reply = await client.postJson('/v1/embeddings', {
        model: 'gamma-m3',
        input: 'hello',
        dimensions: 1024,
      });
      expect(reply.status, reply.text).toBe(200);
      expect(upstream.requestsTo('/v1/embeddings')[0]?.body as Json).not.toHaveProperty(
        'dimensions',
      );
      expectNativeError(
        await client.postJson('/v1/embeddings', {
          model: 'gamma-m3',
          input: 'hello',
          dimensions: 512,
        }),
        400,
        { param: 'dimensions' },
      );
    });

    it('takes encoding_format: null as not given: float vectors', async () => {
      const reply = await client.postJson('/v1/embeddings', {
        model: 'gamma-m3',
        input: 'hello',
        encoding_format: null,
      });
      expect(reply.status, reply.text).toBe(200);
      expect(((reply.json as Json).data as Json[])[0]?.embedding).toEqual(
        expect.arrayContaining([expect.any(Number)]),
      );
    });
  });

  it("passes an upstream 400 on with its message intact but the upstream's address redacted", async () => {
    chatOverride = (_request, response) =>
      writeJson(response, 400, {
        object: 'error',
        message:
          "This model's maximum context length is 8192 tokens; see http://10.20.30.40:8000/docs. Endpoint vllm-0.vllm.svc.cluster.local:8000 (pod 10.20.30.40) refused it.",
        type: 'BadRequestError',
        param: 'messages',
        code: 400,
      });
    const reply = await client.postJson('/v1/chat/completions', {
      model: 'alpha36-35b-a3b-instruct',
      messages: [{ role: 'user', content: 'hi' }],
    });
    const error = expectNativeError(reply, 400, { param: 'messages' });
    expect(error.message).toBe(
      "This model's maximum context length is 8192 tokens; see [upstream]. Endpoint [upstream] (pod [upstream]) refused it.",
    );
  });

  describe('-pe models: the enhancement is charged to the text model', () => {
    const textModel = 'alpha35-122b-a10b-instruct-general';

    it('in the token counters, under the text model id', async () => {
      const before = await readMetrics(gateway.baseUrl, testMetricsKey);
      const reply = await client.postJson('/v1/images/generations', {
        ...imageBody,
        model: 'alpha-image-pe',
      });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.headers.get('x-infergate-prompt-enhancement-model')).toBe(textModel);
      const [input, output] = (reply.headers.get('x-infergate-prompt-enhancement-tokens') ?? '')
        .split('/')
        .map(Number);
      expect(input).toBeGreaterThan(0);
      const after = await readMetrics(gateway.baseUrl, testMetricsKey);
      const delta = (name: string) =>
        metricValue(after, name, { model: textModel, key: 'unnamed' }) -
        metricValue(before, name, { model: textModel, key: 'unnamed' });
      expect(delta('infergate_input_tokens_total')).toBe(input);
      expect(delta('infergate_output_tokens_total')).toBe(output);
    });

    it("in the key's token limit: a -pe request uses the enhancement's tokens more than the plain model", async () => {
      // Each key makes one image request, then the same probe; the probe's remaining tokens show what
      // the image request settled at, and the two differ by the enhancement's tokens exactly.
      const spent = async (
        key: string,
        model: string,
      ): Promise<{ used: number; enhancement: number }> => {
        const headers = { authorization: `Bearer ${key}` };
        const reply = await client.postJson(
          '/v1/images/generations',
          { ...imageBody, model },
          { headers },
        );
        expect(reply.status, reply.text).toBe(200);
        const [input = 0, output = 0] = (
          reply.headers.get('x-infergate-prompt-enhancement-tokens') ?? '0/0'
        )
          .split('/')
          .map(Number);
        const probe = await client.postJson(
          '/tokenize',
          { model: 'alpha36-35b-a3b-instruct', prompt: 'probe' },
          { headers },
        );
        expect(probe.status, probe.text).toBe(200);
        return {
          used: tokensPerMinute - Number(probe.headers.get('x-ratelimit-remaining-tokens')),
          enhancement: input + output,
        };
      };
      const pe = await spent(peKey, 'alpha-image-pe');
      const plain = await spent(plainKey, 'alpha-image');
      expect(pe.enhancement).toBeGreaterThan(0);
      expect(pe.used - plain.used).toBe(pe.enhancement);
    });
  });
});
