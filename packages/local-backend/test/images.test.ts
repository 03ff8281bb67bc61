import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { postJson, useTestServer } from './test-server.js';
import type { ImageResult, VllmErrorBody } from './wire-types.js';

const server = useTestServer();
const generate = <T = ImageResult>(body: Record<string, unknown>) =>
  postJson<T>(`${server.url()}/v1/images/generations`, {
    model: 'alpha-image',
    prompt: 'a lighthouse at dusk',
    size: '320x200',
    quality: 'medium',
    output_format: 'png',
    ...body,
  });
const edit = <T = ImageResult>(body: Record<string, unknown>) =>
  postJson<T>(`${server.url()}/v1/images/edits`, {
    model: 'alpha-image-edit',
    prompt: 'make it stormy',
    output_format: 'png',
    quality: 'high',
    ...body,
  });

function decode(result: ImageResult): Buffer {
  return Buffer.from(result.data[0]?.b64_json ?? '', 'base64');
}

/** Width and height from the PNG IHDR chunk: bytes 16-23, big-endian. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function meanAbsoluteDifference(left: Buffer, right: Buffer): Promise<number> {
  const [a, b] = await Promise.all(
    [left, right].map((image) => sharp(image).removeAlpha().raw().toBuffer()),
  );
  if (a === undefined || b === undefined || a.length !== b.length) throw new Error('sizes differ');
  let sum = 0;
  for (let index = 0; index < a.length; index += 1)
    sum += Math.abs((a[index] ?? 0) - (b[index] ?? 0));
  return sum / a.length;
}

describe('POST /v1/images/generations', () => {
  it('returns a PNG of exactly the requested size, with the image result fields', async () => {
    const { status, json } = await generate({});
    expect(status).toBe(200);
    const png = decode(json);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(pngSize(png)).toEqual({ width: 320, height: 200 });
    expect(Number.isInteger(json.created)).toBe(true);
    expect(json).toMatchObject({ output_format: 'png', quality: 'medium', size: '320x200' });
    expect(json.data).toHaveLength(1);
    expect(Object.keys(json.data[0] ?? {})).toEqual(['b64_json']);
    // The spec's shown image results: input and total 0, output a large count.
    expect(json.usage).toMatchObject({
      total_tokens: 0,
      input_tokens: 0,
      input_tokens_details: { text_tokens: 0, image_tokens: 0 },
    });
    expect(json.usage.output_tokens).toBe(Math.ceil((320 * 200) / 1024));
  });

  it('returns JPEG and WebP with their magic bytes and header dimensions', async () => {
    const jpeg = decode((await generate({ output_format: 'jpeg', size: '256x144' })).json);
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 256, height: 144 });
    const webp = decode(
      (await generate({ output_format: 'webp', size: '100x300', quality: 'low' })).json,
    );
    expect(webp.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(webp.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(await sharp(webp).metadata()).toMatchObject({ format: 'webp', width: 100, height: 300 });
  });

  it('maps quality to encoder settings: a high JPEG is larger than a low one', async () => {
    const low = decode((await generate({ output_format: 'jpeg', quality: 'low' })).json);
    const high = decode((await generate({ output_format: 'jpeg', quality: 'hd' })).json);
    expect(high.length).toBeGreaterThan(low.length);
  });

  it('is deterministic for a prompt and differs between prompts', async () => {
    const first = decode((await generate({})).json);
    const again = decode((await generate({})).json);
    const other = decode((await generate({ prompt: 'a forest in spring' })).json);
    expect(again.equals(first)).toBe(true);
    expect(await meanAbsoluteDifference(first, other)).toBeGreaterThan(10);
  });

  it('refuses sizes over 2 megapixels, url response_format and image-edit models', async () => {
    const big = await generate<VllmErrorBody>({ size: '2048x2048' });
    expect(big.status).toBe(400);
    expect(big.json.error.param).toBe('size');
    const url = await generate<VllmErrorBody>({ response_format: 'url' });
    expect(url.status).toBe(400);
    expect(url.json.error.param).toBe('response_format');
    const wrongModel = await generate<VllmErrorBody>({ model: 'alpha-image-edit' });
    expect(wrongModel.status).toBe(400);
  });
});

describe('image sizes: every WxH the gateway accepts (positive integers, W*H <= 2,097,152)', () => {
  it.each(['1x1', '2048x1024', '1448x1448', '1024x2048'])(
    'generates a %s PNG of exactly that size',
    async (size) => {
      const { status, json } = await generate({ size });
      expect(status).toBe(200);
      const [width, height] = size.split('x').map(Number);
      expect(pngSize(decode(json))).toEqual({ width, height });
      expect(json.size).toBe(size);
    },
  );

  it('generates a 1x2097152 strip, the most extreme shape the gateway accepts', async () => {
    const { status, json } = await generate({ size: '1x2097152' });
    expect(status).toBe(200);
    expect(pngSize(decode(json))).toEqual({ width: 1, height: 2_097_152 });
  }, 60_000);

  it('answers a size JPEG or WebP cannot encode (a side over 65,500 or 16,383 px) as a PNG and says so in output_format', async () => {
    const jpeg = await generate({ size: '2097152x1', output_format: 'jpeg' });
    expect(jpeg.status).toBe(200);
    expect(jpeg.json.output_format).toBe('png');
    expect(pngSize(decode(jpeg.json))).toEqual({ width: 2_097_152, height: 1 });
    const webp = await generate({ size: '16384x64', output_format: 'webp' });
    expect(webp.json.output_format).toBe('png');
    expect(pngSize(decode(webp.json))).toEqual({ width: 16_384, height: 64 });
    const webpAtLimit = await generate({ size: '16383x64', output_format: 'webp' });
    expect(webpAtLimit.json.output_format).toBe('webp');
    expect(await sharp(decode(webpAtLimit.json)).metadata()).toMatchObject({
      format: 'webp',
      width: 16_383,
      height: 64,
    });
  }, 60_000);

  it.each(['2049x1024', '1x2097153', '1449x1448', '0x10', '10x0', '012x10', '10x10x10', '-1x5'])(
    'refuses %s with 400 naming size',
    async (size) => {
      const { status, json } = await generate<VllmErrorBody>({ size });
      expect(status).toBe(400);
      expect(json.error.param).toBe('size');
    },
  );

  it('edits to 2048x1024', async () => {
    const source = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#336699' },
    })
      .png()
      .toBuffer();
    const { status, json } = await edit({
      images: [{ image_url: `data:image/png;base64,${source.toString('base64')}` }],
      size: '2048x1024',
    });
    expect(status).toBe(200);
    expect(pngSize(decode(json))).toEqual({ width: 2048, height: 1024 });
  }, 60_000);
});

describe('POST /v1/images/edits', () => {
  it('resizes the given image to the target size with a visible, prompt-seeded change', async () => {
    const source = await sharp({
      create: { width: 200, height: 100, channels: 3, background: '#808080' },
    })
      .png()
      .toBuffer();
    const { status, json } = await edit({
      images: [{ image_url: `data:image/png;base64,${source.toString('base64')}` }],
      size: '300x240',
    });
    expect(status).toBe(200);
    const edited = decode(json);
    expect(pngSize(edited)).toEqual({ width: 300, height: 240 });
    expect(json.size).toBe('300x240');
    const sourceAtTarget = await sharp(source).resize(300, 240, { fit: 'cover' }).png().toBuffer();
    expect(await meanAbsoluteDifference(edited, sourceAtTarget)).toBeGreaterThan(5);
    const again = decode(
      (
        await edit({
          images: [{ image_url: `data:image/png;base64,${source.toString('base64')}` }],
          size: '300x240',
        })
      ).json,
    );
    expect(again.equals(edited)).toBe(true);
  });

  it('keeps the input size when no size is given and writes the requested format', async () => {
    const source = await sharp({
      create: { width: 90, height: 60, channels: 3, background: '#20a040' },
    })
      .jpeg()
      .toBuffer();
    const { json } = await edit({
      images: [{ image_url: `data:image/jpeg;base64,${source.toString('base64')}` }],
      output_format: 'webp',
    });
    expect(await sharp(decode(json)).metadata()).toMatchObject({
      format: 'webp',
      width: 90,
      height: 60,
    });
  });

  it('refuses images given by URL and unreadable image data', async () => {
    const remote = await edit<VllmErrorBody>({
      images: [{ image_url: 'https://example.com/cat.png' }],
      size: '64x64',
    });
    expect(remote.status).toBe(400);
    expect(remote.json.error.param).toBe('images[0].image_url');
    const garbage = await edit<VllmErrorBody>({
      images: [{ image_url: `data:image/png;base64,${btoa('not an image')}` }],
      size: '64x64',
    });
    expect(garbage.status).toBe(400);
  });
});
