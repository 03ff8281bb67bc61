import type { UpstreamHandler } from './start-recording-upstream.js';
import {
  chatCompletion,
  chatStreamChunks,
  cohereEmbedResponse,
  embeddingsResponse,
  imagesResponse,
  rerankResponse,
  tokenizeResponse,
} from './vllm-payloads.js';
import { writeChatSse, writeJson } from './write-json.js';

type Json = Record<string, unknown>;

function bodyOf(request: { body: unknown }): Json {
  return typeof request.body === 'object' && request.body !== null ? (request.body as Json) : {};
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
}

/** The text the fake chat model answers: it names the model it was asked for, so tests see the mapping. */
export function fakeAnswer(model: string): string {
  return `Hello from ${model}.`;
}

const chat: UpstreamHandler = (request, response) => {
  const body = bodyOf(request);
  const model = typeof body.model === 'string' ? body.model : 'unknown';
  const answer = fakeAnswer(model);
  if (body.stream === true) {
    const options = bodyOf({ body: body.stream_options });
    writeChatSse(
      response,
      chatStreamChunks(model, answer.split(/(?<= )/), options.include_usage === true),
    );
    return;
  }
  writeJson(response, 200, chatCompletion(model, answer));
};

const embeddings: UpstreamHandler = (request, response) => {
  const body = bodyOf(request);
  const dimensions = typeof body.dimensions === 'number' ? body.dimensions : 1024;
  writeJson(
    response,
    200,
    embeddingsResponse(
      String(body.model),
      stringsOf(body.input),
      dimensions,
      typeof body.encoding_format === 'string' ? body.encoding_format : undefined,
    ),
  );
};

const cohereEmbed: UpstreamHandler = (request, response) => {
  const body = bodyOf(request);
  const dimensions = typeof body.output_dimension === 'number' ? body.output_dimension : 1024;
  const inputs = Array.isArray(body.inputs) ? (body.inputs as Json[]) : [];
  const texts = [...stringsOf(body.texts)];
  let images = stringsOf(body.images).length;
  for (const input of inputs) {
    for (const block of Array.isArray(input.content) ? (input.content as Json[]) : []) {
      if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
      if (block.type === 'image_url') images += 1;
    }
  }
  writeJson(response, 200, cohereEmbedResponse(texts, dimensions, images));
};

const rerank: UpstreamHandler = (request, response) => {
  const body = bodyOf(request);
  writeJson(
    response,
    200,
    rerankResponse(
      String(body.model),
      String(body.query ?? ''),
      stringsOf(body.documents),
      typeof body.top_n === 'number' ? body.top_n : undefined,
    ),
  );
};

const tokenize: UpstreamHandler = (request, response) => {
  const body = bodyOf(request);
  writeJson(response, 200, tokenizeResponse(String(body.prompt ?? ''), 262_144));
};

const images: UpstreamHandler = (request, response) => {
  const body = bodyOf(request);
  writeJson(
    response,
    200,
    imagesResponse(
      String(body.output_format ?? 'png'),
      String(body.quality ?? 'medium'),
      String(body.size ?? '1024x1024'),
    ),
  );
};

const models: UpstreamHandler = (_request, response) => {
  writeJson(response, 200, { object: 'list', data: [] });
};

const health: UpstreamHandler = (_request, response) => {
  response.writeHead(200);
  response.end();
};

/** vLLM-shaped answers for every path the gateway's protocols call. */
export const defaultUpstreamHandlers: Readonly<Record<string, UpstreamHandler>> = {
  'POST /v1/chat/completions': chat,
  'POST /v1/embeddings': embeddings,
  'POST /v2/embed': cohereEmbed,
  'POST /rerank': rerank,
  'POST /v1/rerank': rerank,
  'POST /v2/rerank': rerank,
  'POST /tokenize': tokenize,
  'POST /v1/images/generations': images,
  'POST /v1/images/edits': images,
  'GET /v1/models': models,
  'GET /health': health,
};
