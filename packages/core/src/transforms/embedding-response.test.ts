import { describe, expect, it } from 'vitest';
import { readEmbeddingUpstreamResponse } from '../protocols/openai/embedding-upstream-response.js';
import { bodyText } from '../http/body-text.js';
import { embeddingResponse } from './embedding-response.js';
import { encodeBase64 } from './encode-float32-base64.js';

const bytesOf = (text: string): Uint8Array => new TextEncoder().encode(text);

// Number text as model servers write it: compact (vLLM), with blanks, exponents and negative zero.
const upstreamText = bytesOf(
  '{"id":"embd-1","object":"list","data":[{"index":1,"object":"embedding","embedding":[ 0.5 , -2e-3,1E+2 ]},' +
    '{"index":0,"object":"embedding","embedding":[-0.0,3.25,7]}],"usage":{"prompt_tokens":6,"total_tokens":6}}',
);

function answer(
  model: string,
  encodingFormat: 'float' | 'base64',
  dimensions?: number,
  upstreamPieces: readonly Uint8Array[] = [upstreamText],
) {
  const response = embeddingResponse({
    id: 'embd-1',
    created: 1_767_225_600,
    model,
    embeddings: readEmbeddingUpstreamResponse(upstreamPieces, 2, dimensions),
    encodingFormat,
    encodeBase64,
  });
  if (typeof response === 'string') return response;
  const body = bodyText(response.pieces);
  expect(new TextEncoder().encode(body).length).toBe(response.byteLength);
  return body;
}

describe('embeddingResponse', () => {
  it("passes the upstream's number text on unchanged, in input order", () => {
    const body = answer('alpha3-vl-embedding-8b', 'float');
    expect(body).toContain('"embedding":[-0.0,3.25,7]}');
    expect(body).toContain('"embedding":[ 0.5 , -2e-3,1E+2 ]}');
    const parsed = JSON.parse(body) as {
      data: { index: number; embedding: number[] }[];
      usage: unknown;
    };
    expect(parsed.data.map((item) => item.embedding)).toEqual([
      [-0, 3.25, 7],
      [0.5, -0.002, 100],
    ]);
    expect(parsed.usage).toEqual({ prompt_tokens: 6, total_tokens: 6, completion_tokens: 0 });
  });

  it('answers the same wherever the upstream answer was cut into pieces on the way, vectors split across pieces included', () => {
    for (const format of ['float', 'base64'] as const) {
      const whole = answer('m', format);
      for (let cut = 1; cut < upstreamText.length; cut += 1) {
        const pieces = [upstreamText.subarray(0, cut), upstreamText.subarray(cut)];
        expect(answer('m', format, undefined, pieces), `${format}, cut at ${cut}`).toBe(whole);
      }
      const bytes = [...upstreamText].map((byte) => Uint8Array.of(byte));
      expect(answer('m', format, undefined, bytes), `${format}, a byte a piece`).toBe(whole);
    }
  });

  it('is valid UTF-8 JSON with the model named as given, for ASCII names and names with 2-, 3- and 4-byte characters', () => {
    for (const model of [
      'alpha3-vl-embedding-8b',
      'modèle',
      '向量-模型',
      'emoji-😀-model',
      'mixé-向-😀',
    ]) {
      for (const format of ['float', 'base64'] as const) {
        const parsed = JSON.parse(answer(model, format)) as {
          model: string;
          data: unknown[];
          usage: { total_tokens: number };
        };
        expect(parsed, `${model} ${format}`).toMatchObject({ model, usage: { total_tokens: 6 } });
        expect(parsed.data, `${model} ${format}`).toHaveLength(2);
      }
    }
  });

  it('counts the numbers of a vector, blanks and all: the requested dimensions hold', () => {
    expect(() => readEmbeddingUpstreamResponse(upstreamText, 2, 3)).not.toThrow();
    expect(() => readEmbeddingUpstreamResponse(upstreamText, 2, 4)).toThrow(
      'The model server returned 3 dimensions where 4 were requested.',
    );
    const empty = bytesOf('{"data":[{"index":0,"embedding":[ ]}],"usage":{"prompt_tokens":1}}');
    expect(() => readEmbeddingUpstreamResponse(empty, 1, 2)).toThrow(
      'The model server returned 0 dimensions where 2 were requested.',
    );
    const base64 = JSON.parse(answer('m', 'base64')) as { data: { embedding: string }[] };
    expect(base64.data.map((item) => atob(item.embedding).length)).toEqual([12, 12]);
  });

  it('gives each base64 answer its own floats only, after a larger answer and after a failed one', () => {
    const floatsOf = (embedding: string): number[] =>
      Array.from(new Float32Array(Uint8Array.from(atob(embedding), (c) => c.charCodeAt(0)).buffer));
    const upstream = (vectors: number[][]): Uint8Array =>
      bytesOf(
        `{"data":[${vectors.map((vector, index) => `{"index":${index},"embedding":[${vector.join(',')}]}`).join(',')}],"usage":{"prompt_tokens":1}}`,
      );
    const send = (vectors: number[][]): number[][] => {
      const response = embeddingResponse({
        id: 'e',
        created: 1,
        model: 'm',
        embeddings: readEmbeddingUpstreamResponse(upstream(vectors), vectors.length, undefined),
        encodingFormat: 'base64',
        encodeBase64,
      });
      const body = typeof response === 'string' ? response : bodyText(response.pieces);
      return (JSON.parse(body) as { data: { embedding: string }[] }).data.map((item) =>
        floatsOf(item.embedding),
      );
    };
    const large = Array.from({ length: 3 }, (_, row) =>
      Array.from({ length: 700 }, (_, column) => row + column / 8),
    );
    expect(send(large)).toEqual(large);
    expect(send([[0.5], [-2]])).toEqual([[0.5], [-2]]);
    expect(send([[]])).toEqual([[]]);
    const wrongCount = { ...readEmbeddingUpstreamResponse(upstream([[1, 2]]), 1, undefined) };
    wrongCount.vectors = wrongCount.vectors.map((vector) => ({ ...vector, length: 3 }));
    expect(() =>
      embeddingResponse({
        id: 'e',
        created: 1,
        model: 'm',
        embeddings: wrongCount,
        encodingFormat: 'base64',
        encodeBase64,
      }),
    ).toThrow();
    expect(send([[7, 8]])).toEqual([[7, 8]]);
  });
});
