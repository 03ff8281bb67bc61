import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContractClient,
  startRecordingUpstream,
  type RecordingUpstream,
  type UpstreamHandler,
} from '@infergate/testkit';
import { startNodeGateway, type NodeGateway } from './start-node-gateway.js';

// What servers without a tokenizer route answer (FastAPI's default 404, Go's net/http text page),
// and vLLM's 404 for a model name it does not serve, which is about the request, not the route.
const fastApiNotFound: UpstreamHandler = (_request, response) => {
  response.writeHead(404, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ detail: 'Not Found' }));
};
const goNotFound: UpstreamHandler = (_request, response) => {
  response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
  response.end('404 page not found\n');
};
const vllmUnknownModel: UpstreamHandler = (request, response) => {
  const model = (request.body as { model?: string } | undefined)?.model ?? '';
  response.writeHead(404, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({
      error: {
        message: `The model \`${model}\` does not exist.`,
        type: 'NotFoundError',
        param: null,
        code: 404,
      },
    }),
  );
};

describe('/tokenize where the model server offers no tokenization', () => {
  let fastApi: RecordingUpstream;
  let go: RecordingUpstream;
  let vllm: RecordingUpstream;
  let switchedOff: RecordingUpstream;
  let gateway: NodeGateway;
  let client: ContractClient;

  beforeAll(async () => {
    fastApi = await startRecordingUpstream({ handlers: { 'POST /tokenize': fastApiNotFound } });
    go = await startRecordingUpstream({ handlers: { 'POST /tokenize': goNotFound } });
    vllm = await startRecordingUpstream({ handlers: { 'POST /tokenize': vllmUnknownModel } });
    switchedOff = await startRecordingUpstream();
    gateway = await startNodeGateway({
      upstreams: [
        {
          name: 'plain-openai',
          url: fastApi.url,
          protocol: 'openai',
          models: { 'alpha36-35b-a3b-instruct': 'served-a' },
        },
        {
          name: 'ollama-like',
          url: go.url,
          protocol: 'openai',
          models: { 'alpha36-35b-a3b-thinking-general': 'served-b' },
        },
        {
          name: 'vllm',
          url: vllm.url,
          protocol: 'openai',
          models: { 'alpha35-122b-a10b-instruct-general': 'served-c' },
        },
        {
          name: 'no-tokenizer',
          url: switchedOff.url,
          protocol: 'openai',
          tokenize: false,
          models: { 'alpha35-122b-a10b-thinking-general': 'served-d' },
        },
      ],
    });
    client = new ContractClient(gateway);
  });

  afterAll(async () => {
    await gateway?.close();
    await Promise.all([fastApi, go, vllm, switchedOff].map((upstream) => upstream?.close()));
  });

  const tokenize = (model: string) =>
    client.postJson('/tokenize', { model, prompt: 'How long is this?' });

  it.each([
    ['a FastAPI 404', 'alpha36-35b-a3b-instruct'],
    ['a plain-text 404', 'alpha36-35b-a3b-thinking-general'],
  ])('answers %s from the upstream with a 501 naming the model', async (_case, model) => {
    const reply = await tokenize(model);
    expect(reply.status).toBe(501);
    const error = (reply.json as { error: { message: string; code: string; param: string } }).error;
    expect(error.code).toBe('tokenize_not_supported');
    expect(error.param).toBe('model');
    expect(error.message).toContain(`'${model}'`);
    expect(error.message).toContain('does not offer tokenization');
  });

  it('keeps the upstream 404 of a model name it does not serve (a configuration error, not a missing route)', async () => {
    const reply = await tokenize('alpha35-122b-a10b-instruct-general');
    expect(reply.status).toBe(404);
    expect(vllm.requestsTo('/tokenize')).toHaveLength(1);
  });

  it('answers the same 501 without calling an upstream configured with tokenize: false', async () => {
    const reply = await tokenize('alpha35-122b-a10b-thinking-general');
    expect(reply.status).toBe(501);
    expect((reply.json as { error: { message: string } }).error.message).toContain(
      "'alpha35-122b-a10b-thinking-general'",
    );
    expect(switchedOff.requests).toHaveLength(0);
    // The flag is about /tokenize only: chat on the same upstream is served.
    const chat = await client.postJson('/v1/chat/completions', {
      model: 'alpha35-122b-a10b-thinking-general',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(chat.status).toBe(200);
    expect(switchedOff.requestsTo('/v1/chat/completions')).toHaveLength(1);
  });
});

describe('the tokenize flag in the config file', () => {
  it('is validated, and every upstream of a model must agree on it', async () => {
    const upstream = {
      url: 'http://127.0.0.1:9',
      protocol: 'openai',
      models: { 'alpha36-35b-a3b-instruct': 'served' },
    };
    await expect(
      startNodeGateway({ upstreams: [{ name: 'a', ...upstream, tokenize: 'sometimes' }] }),
    ).rejects.toThrow(/upstreams\[0\]\.tokenize/);
    await expect(
      startNodeGateway({
        upstreams: [
          { name: 'a', ...upstream },
          { name: 'b', ...upstream, tokenize: false },
        ],
      }),
    ).rejects.toThrow(/upstreams\[1\]\.tokenize: upstream 'a'/);
  });
});
