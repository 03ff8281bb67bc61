// Request and response bodies of the bench, in the shapes of the model servers' protocols (vLLM's OpenAI
// server). Computed once at start; nothing here runs per request.
import { crc32 } from 'node:zlib';
import { Buffer } from 'node:buffer';

const created = 1_767_225_600;
const words =
  'The gateway forwards this answer from a stub model server so that only the proxy costs anything here'.split(
    ' ',
  );

/** The chat model every text scenario uses, and the one the long-stream scenario uses (its own upstream name). */
export const chatModel = 'alpha36-35b-a3b-instruct';
export const longStreamModel = 'alpha35-122b-a10b-instruct-general';
export const embeddingModel = 'gamma-m3';
export const imageEditModel = 'alpha-image-edit';

/** About 300 bytes, like a short system + user turn. */
export function chatRequestBody(stream, model = chatModel) {
  const body = {
    model,
    messages: [
      { role: 'system', content: 'You are a concise assistant. Answer in one short paragraph.' },
      {
        role: 'user',
        content:
          'Explain in two sentences why a reverse proxy should add as little latency as possible to each call.',
      },
    ],
    max_tokens: 128,
    temperature: 0.7,
  };
  if (stream) body.stream = true;
  return JSON.stringify(body);
}

export function responsesRequestBody() {
  return JSON.stringify({
    model: chatModel,
    instructions: 'You are a concise assistant. Answer in one short paragraph.',
    input:
      'Explain in two sentences why a reverse proxy should add as little latency as possible to each call.',
    max_output_tokens: 128,
    stream: true,
  });
}

/** `encodingFormat` base64 is what openai-node sends when its caller names no format. */
export function embeddingsRequestBody(inputs = 16, encodingFormat = undefined) {
  return JSON.stringify({
    model: embeddingModel,
    input: Array.from(
      { length: inputs },
      (_, index) => `document number ${index}: a short passage of text to embed for retrieval`,
    ),
    ...(encodingFormat === undefined ? {} : { encoding_format: encodingFormat }),
  });
}

/**
 * Whether an embeddings answer holds `inputs` vectors of `dimensions` values in the form asked for
 * (base64: 4 bytes per value), in index order: the bench measures only targets that answer in full.
 */
export function embeddingsAnswerComplete(text, inputs, dimensions, encodingFormat) {
  const data = JSON.parse(text).data;
  if (!Array.isArray(data) || data.length !== inputs) return false;
  return data.every((item, index) => {
    if (item.index !== index) return false;
    if (encodingFormat === 'base64')
      return (
        typeof item.embedding === 'string' &&
        Buffer.from(item.embedding, 'base64').length === dimensions * 4
      );
    return (
      Array.isArray(item.embedding) &&
      item.embedding.length === dimensions &&
      item.embedding.every((value) => typeof value === 'number')
    );
  });
}

/** A vLLM chat completion of about 600 bytes. */
export function chatCompletionBody(model) {
  const content = words.slice(0, 14).join(' ');
  return JSON.stringify({
    id: 'chatcmpl-0123456789abcdef0123456789abcdef',
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          refusal: null,
          annotations: null,
          audio: null,
          function_call: null,
          tool_calls: [],
          reasoning_content: null,
        },
        logprobs: null,
        finish_reason: 'stop',
        stop_reason: null,
      },
    ],
    service_tier: null,
    system_fingerprint: null,
    usage: {
      prompt_tokens: 58,
      total_tokens: 72,
      completion_tokens: 14,
      prompt_tokens_details: null,
    },
    prompt_logprobs: null,
    kv_transfer_params: null,
  });
}

/** A vLLM chat stream: role chunk, `pieces` content chunks, the finishing chunk, the usage chunk, [DONE]. */
export function chatStreamEvents(model, pieces) {
  const base = {
    id: 'chatcmpl-fedcba9876543210fedcba9876543210',
    object: 'chat.completion.chunk',
    created,
    model,
  };
  const events = [
    {
      ...base,
      choices: [
        {
          index: 0,
          delta: { role: 'assistant', content: '' },
          logprobs: null,
          finish_reason: null,
        },
      ],
    },
  ];
  for (let index = 0; index < pieces; index += 1) {
    events.push({
      ...base,
      choices: [
        {
          index: 0,
          delta: { content: ` ${words[index % words.length]}` },
          logprobs: null,
          finish_reason: null,
        },
      ],
    });
  }
  events.push({
    ...base,
    choices: [
      {
        index: 0,
        delta: { content: '' },
        logprobs: null,
        finish_reason: 'stop',
        stop_reason: null,
      },
    ],
  });
  events.push({
    ...base,
    choices: [],
    usage: { prompt_tokens: 58, total_tokens: 58 + pieces, completion_tokens: pieces },
  });
  return [...events.map((event) => `data: ${JSON.stringify(event)}\n\n`), 'data: [DONE]\n\n'];
}

/** What a Responses API server streams for a text answer of `pieces` deltas (direct and floor only). */
export function responsesStreamEvents(model, pieces) {
  let sequence = 0;
  const events = [];
  const emit = (type, payload) =>
    events.push(
      `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...payload })}\n\n`,
    );
  const response = {
    id: 'resp_0123456789abcdef0123456789abcdef',
    object: 'response',
    created_at: created,
    status: 'in_progress',
    model,
    output: [],
    usage: null,
  };
  const item = {
    id: 'msg_0123456789abcdef0123456789abcdef',
    type: 'message',
    role: 'assistant',
    status: 'in_progress',
    content: [],
  };
  emit('response.created', { response });
  emit('response.in_progress', { response });
  emit('response.output_item.added', { output_index: 0, item });
  emit('response.content_part.added', {
    item_id: item.id,
    output_index: 0,
    content_index: 0,
    part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
  });
  let text = '';
  for (let index = 0; index < pieces; index += 1) {
    const delta = ` ${words[index % words.length]}`;
    text += delta;
    emit('response.output_text.delta', {
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta,
      logprobs: [],
    });
  }
  const part = { type: 'output_text', text, annotations: [], logprobs: [] };
  emit('response.output_text.done', {
    item_id: item.id,
    output_index: 0,
    content_index: 0,
    text,
    logprobs: [],
  });
  emit('response.content_part.done', { item_id: item.id, output_index: 0, content_index: 0, part });
  const done = { ...item, status: 'completed', content: [part] };
  emit('response.output_item.done', { output_index: 0, item: done });
  emit('response.completed', {
    response: {
      ...response,
      status: 'completed',
      output: [done],
      usage: { input_tokens: 58, output_tokens: pieces, total_tokens: 58 + pieces },
    },
  });
  return events;
}

/**
 * vLLM's embeddings answer: float32 values printed as Python prints them (about 20 characters each),
 * or with `base64` the base64 of their little-endian float32 bytes, as vLLM writes it.
 */
export function embeddingsBody(model, inputs, dimensions, encodingFormat = 'float') {
  let seed = 2_166_136_261;
  const next = () => {
    seed = Math.imul(seed ^ (seed >>> 15), 2_246_822_507) >>> 0;
    seed = Math.imul(seed ^ (seed >>> 13), 3_266_489_909) >>> 0;
    return Math.fround(((seed % 200_001) - 100_000) / 1_000_000 + 1e-9 * (seed % 97));
  };
  const data = Array.from({ length: inputs }, (_, index) => {
    const values = Array.from({ length: dimensions }, next);
    return {
      index,
      object: 'embedding',
      embedding:
        encodingFormat === 'base64'
          ? Buffer.from(Float32Array.from(values).buffer).toString('base64')
          : values,
    };
  });
  return JSON.stringify({
    id: 'embd-0123456789abcdef0123456789abcdef',
    object: 'list',
    created,
    model,
    data,
    usage: {
      prompt_tokens: inputs * 12,
      total_tokens: inputs * 12,
      completion_tokens: 0,
      prompt_tokens_details: null,
    },
  });
}

const onePixelPngBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export function imageEditBody() {
  return JSON.stringify({
    created,
    data: [{ b64_json: onePixelPngBase64 }],
    usage: {
      total_tokens: 4160,
      input_tokens: 0,
      output_tokens: 4160,
      input_tokens_details: { text_tokens: 0, image_tokens: 0 },
    },
    output_format: 'png',
    quality: 'medium',
    size: '1024x1024',
  });
}

function pngChunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

/**
 * A PNG of `byteLength` bytes: a real signature and IHDR (1024 x 1024, RGBA) followed by padding
 * inside a private ancillary chunk. The gateway reads only the header; the stub answers a canned
 * image without decoding anything.
 */
function paddedPng(byteLength) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1024, 0);
  header.writeUInt32BE(1024, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(6, 9);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const ihdr = pngChunk('IHDR', header);
  const paddingLength = Math.max(0, byteLength - signature.length - ihdr.length - 12);
  const padding = pngChunk('bnCh', Buffer.alloc(paddingLength, 0x5a));
  return Buffer.concat([signature, ihdr, padding]);
}

/** An image-edit request (JSON form) whose data URL is `dataUrlBytes` long. */
export function imageEditRequestBody(dataUrlBytes) {
  const prefix = 'data:image/png;base64,';
  const rawBytes = Math.floor(((dataUrlBytes - prefix.length) / 4) * 3);
  const image = paddedPng(rawBytes);
  const head = Buffer.from(
    `{"model":"${imageEditModel}","prompt":"make the sky blue","images":[{"image_url":"${prefix}`,
    'latin1',
  );
  const tail = Buffer.from(
    '"}],"output_format":"png","quality":"standard","size":"1024x1024"}',
    'latin1',
  );
  return Buffer.concat([head, Buffer.from(image.toString('base64'), 'latin1'), tail]);
}

/**
 * The same edit as the multipart form the official clients send (openai-node's images.edit, curl -F),
 * `bodyBytes` long in all: one PNG file part and the other fields as text parts.
 */
export function imageEditFormBody(bodyBytes) {
  const boundary = '----infergate-bench-7d1f0c2a9e';
  const text = (name, value) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    text('model', imageEditModel) +
      text('prompt', 'make the sky blue') +
      text('output_format', 'png') +
      text('quality', 'standard') +
      text('size', '1024x1024') +
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="in.png"\r\nContent-Type: image/png\r\n\r\n`,
    'latin1',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1');
  const image = paddedPng(bodyBytes - head.length - tail.length);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([head, image, tail]),
  };
}
