/**
 * Upstream answers in the shapes of the model servers' protocols (vLLM's OpenAI server, its /tokenize and
 * Jina-style rerank, the Cohere v2 embed body, the OpenAI images body), deterministic so that tests
 * can compute what the gateway must return.
 */

/** A valid 1x1 PNG, so that anything decoding the image header sees a real image. */
export const onePixelPngBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const created = 1_767_225_600;

/** Token count the fake upstreams report for a text: one token per whitespace-separated word. */
export function fakeTokenCount(text: string): number {
  return text.split(/\s+/).filter((word) => word.length > 0).length;
}

export function chatCompletion(
  model: string,
  content: string,
  promptTokens = 7,
): Record<string, unknown> {
  const completionTokens = fakeTokenCount(content);
  return {
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
          reasoning: null,
        },
        logprobs: null,
        finish_reason: 'stop',
        stop_reason: 151_645,
        token_ids: null,
      },
    ],
    service_tier: null,
    system_fingerprint: null,
    usage: {
      prompt_tokens: promptTokens,
      total_tokens: promptTokens + completionTokens,
      completion_tokens: completionTokens,
      prompt_tokens_details: null,
    },
    prompt_logprobs: null,
    prompt_token_ids: null,
    kv_transfer_params: null,
  };
}

/** The chunks of a vLLM chat stream: role chunk, one chunk per piece, the finishing chunk, then usage when asked. */
export function chatStreamChunks(
  model: string,
  pieces: readonly string[],
  includeUsage: boolean,
  promptTokens = 7,
): Record<string, unknown>[] {
  const base = {
    id: 'chatcmpl-fedcba9876543210fedcba9876543210',
    object: 'chat.completion.chunk',
    created,
    model,
  };
  const chunks: Record<string, unknown>[] = [
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
  for (const piece of pieces)
    chunks.push({
      ...base,
      choices: [{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }],
    });
  chunks.push({
    ...base,
    choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop', stop_reason: 151_645 }],
  });
  if (includeUsage) {
    const completionTokens = fakeTokenCount(pieces.join(''));
    chunks.push({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    });
  }
  return chunks;
}

/** A deterministic unit-ish vector for a text: the same text always embeds to the same numbers. */
export function fakeVector(text: string, dimensions: number): number[] {
  let seed = 2_166_136_261;
  for (const char of text) seed = Math.imul(seed ^ (char.codePointAt(0) ?? 0), 16_777_619) >>> 0;
  const vector: number[] = [];
  for (let index = 0; index < dimensions; index += 1) {
    seed = Math.imul(seed ^ (seed >>> 15), 2_246_822_507) >>> 0;
    // Multiples of 1/1024 are exact in float32, so base64 round trips compare equal.
    vector.push(((seed % 2049) - 1024) / 1024);
  }
  return vector;
}

export function float32Base64(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

export function embeddingsResponse(
  model: string,
  inputs: readonly string[],
  dimensions: number,
  encodingFormat: string | undefined,
): Record<string, unknown> {
  const promptTokens = inputs.reduce((sum, text) => sum + fakeTokenCount(text), 0);
  return {
    id: 'embd-0123456789abcdef0123456789abcdef',
    object: 'list',
    created,
    model,
    data: inputs.map((text, index) => {
      const vector = fakeVector(text, dimensions);
      return {
        index,
        object: 'embedding',
        embedding: encodingFormat === 'base64' ? float32Base64(vector) : vector,
      };
    }),
    usage: {
      prompt_tokens: promptTokens,
      total_tokens: promptTokens,
      completion_tokens: 0,
      prompt_tokens_details: null,
    },
  };
}

/** Cohere v2 embed body (`embeddings_by_type`), with the fields Cohere's clients require. */
export function cohereEmbedResponse(
  texts: readonly string[],
  dimensions: number,
  images: number,
): Record<string, unknown> {
  const inputTokens = texts.reduce((sum, text) => sum + fakeTokenCount(text), 0);
  return {
    id: 'e0b1c2d3-0000-4000-8000-000000000000',
    response_type: 'embeddings_by_type',
    embeddings: {
      float: [...texts, ...Array.from({ length: images }, (_, index) => `image-${index}`)].map(
        (text) => fakeVector(text, dimensions),
      ),
    },
    texts,
    meta: {
      api_version: { version: '2' },
      billed_units: { input_tokens: inputTokens, ...(images > 0 ? { images } : {}) },
    },
  };
}

export function tokenizeResponse(prompt: string, maxModelLen: number): Record<string, unknown> {
  const count = fakeTokenCount(prompt);
  return {
    count,
    max_model_len: maxModelLen,
    tokens: Array.from({ length: count }, (_, index) => 1000 + index),
    token_strs: null,
  };
}

/** A rerank body both vLLM's Jina-style readers and Cohere v2 readers accept: results by descending score. */
export function rerankResponse(
  model: string,
  query: string,
  documents: readonly string[],
  topN: number | undefined,
): Record<string, unknown> {
  const queryWords = new Set(query.toLowerCase().split(/\W+/).filter(Boolean));
  const scored = documents.map((text, index) => {
    const words = text.toLowerCase().split(/\W+/).filter(Boolean);
    const overlap = words.filter((word) => queryWords.has(word)).length;
    return {
      index,
      document: { text },
      relevance_score: words.length === 0 ? 0 : overlap / words.length,
    };
  });
  scored.sort(
    (left, right) => right.relevance_score - left.relevance_score || left.index - right.index,
  );
  const tokens =
    fakeTokenCount(query) * documents.length +
    documents.reduce((sum, text) => sum + fakeTokenCount(text), 0);
  return {
    id: 'rerank-0123456789abcdef0123456789abcdef',
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
    results: topN !== undefined && topN > 0 ? scored.slice(0, topN) : scored,
    meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
  };
}

export function imagesResponse(
  outputFormat: string,
  quality: string,
  size: string,
): Record<string, unknown> {
  return {
    created,
    data: [{ b64_json: onePixelPngBase64 }],
    usage: {
      total_tokens: 0,
      input_tokens: 0,
      output_tokens: 4160,
      input_tokens_details: { text_tokens: 0, image_tokens: 0 },
    },
    output_format: outputFormat,
    quality,
    size,
  };
}
