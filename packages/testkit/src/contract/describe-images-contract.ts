import { describe, expect, it } from 'vitest';
import { asArray, asRecord, type ContractClient } from './contract-client.js';
import { expectNativeError } from './expect-envelopes.js';
import { imageSize, pngDataUrl } from './test-images.js';

function expectInteger(value: unknown): void {
  expect(Number.isInteger(value), String(value)).toBe(true);
}

/** Spec "Image result object", and the image really is what was asked for. */
function expectImageResult(
  value: unknown,
  expected: { format: string; quality: string; size: string },
): void {
  const body = asRecord(value);
  expectInteger(body.created);
  const data = asArray(body.data).map(asRecord);
  expect(data).toHaveLength(1);
  expect(typeof data[0]?.b64_json).toBe('string');
  const bytes = Buffer.from(data[0]?.b64_json as string, 'base64');
  const [width, height] = expected.size.split('x').map(Number);
  expect(imageSize(bytes)).toEqual({ format: expected.format, width, height });
  expect(body.output_format).toBe(expected.format);
  expect(body.quality).toBe(expected.quality);
  expect(body.size).toBe(expected.size);
  const usage = asRecord(body.usage);
  for (const field of ['total_tokens', 'input_tokens', 'output_tokens'])
    expectInteger(usage[field]);
  const details = asRecord(usage.input_tokens_details);
  expectInteger(details.text_tokens);
  expectInteger(details.image_tokens);
}

export function describeImagesContract(client: () => ContractClient): void {
  describe('POST /v1/images/generations', () => {
    it('generates a PNG of the requested size', async () => {
      const reply = await client().postJson('/v1/images/generations', {
        model: 'alpha-image',
        prompt: 'a lighthouse at dusk',
        output_format: 'png',
        quality: 'low',
        size: '64x48',
      });
      expect(reply.status, reply.text).toBe(200);
      expectImageResult(reply.json, { format: 'png', quality: 'low', size: '64x48' });
    });

    it('maps quality (hd -> high, standard and auto -> medium) and encodes jpeg and webp', async () => {
      const cases = [
        ['jpeg', 'hd', 'high'],
        ['webp', 'standard', 'medium'],
        ['png', 'auto', 'medium'],
      ] as const;
      for (const [format, quality, mapped] of cases) {
        const reply = await client().postJson('/v1/images/generations', {
          model: 'alpha-image',
          prompt: 'a red square',
          output_format: format,
          quality,
          size: '32x32',
          n: 1,
          response_format: 'b64_json',
        });
        expect(reply.status, reply.text).toBe(200);
        expectImageResult(reply.json, { format, quality: mapped, size: '32x32' });
      }
    });

    it('accepts n = 0 (mapped to 1) and the ignored parameters', async () => {
      const reply = await client().postJson('/v1/images/generations', {
        model: 'alpha-image',
        prompt: 'a tree',
        output_format: 'png',
        quality: 'medium',
        size: '16x16',
        n: 0,
        background: 'opaque',
        moderation: 'auto',
        output_compression: 90,
        partial_images: 0,
        stream: false,
        style: 'vivid',
        user: 'u-1',
      });
      expect(reply.status, reply.text).toBe(200);
      expectImageResult(reply.json, { format: 'png', quality: 'medium', size: '16x16' });
    });

    it('generates with prompt enhancement through a virtual id', async () => {
      const reply = await client().postJson('/v1/images/generations', {
        model: 'image-pro',
        prompt: 'a cat',
        output_format: 'png',
        quality: 'high',
        size: '24x24',
      });
      expect(reply.status, reply.text).toBe(200);
      expectImageResult(reply.json, { format: 'png', quality: 'high', size: '24x24' });
    });

    it('refuses n other than 0 or 1, response_format url, a size over 2 megapixels, a malformed size', async () => {
      const base = {
        model: 'alpha-image',
        prompt: 'x',
        output_format: 'png',
        quality: 'low',
        size: '16x16',
      };
      expectNativeError(await client().postJson('/v1/images/generations', { ...base, n: 2 }), 400, {
        param: 'n',
      });
      expectNativeError(
        await client().postJson('/v1/images/generations', { ...base, response_format: 'url' }),
        400,
        { param: 'response_format' },
      );
      expectNativeError(
        await client().postJson('/v1/images/generations', { ...base, size: '2048x1025' }),
        400,
        { param: 'size' },
      );
      expectNativeError(
        await client().postJson('/v1/images/generations', { ...base, size: 'large' }),
        400,
        { param: 'size' },
      );
      expectNativeError(
        await client().postJson('/v1/images/generations', { ...base, model: 'alpha-image-edit' }),
        400,
        { code: 'model_not_supported' },
      );
    });

    it('accepts exactly 2 megapixels', async () => {
      const reply = await client().postJson('/v1/images/generations', {
        model: 'alpha-image',
        prompt: 'x',
        output_format: 'jpeg',
        quality: 'low',
        size: '2048x1024',
      });
      expect(reply.status, reply.text).toBe(200);
      expectImageResult(reply.json, { format: 'jpeg', quality: 'low', size: '2048x1024' });
    });
  });

  describe('POST /v1/images/edits', () => {
    it('edits a base64 image (JSON body) and with prompt enhancement', async () => {
      for (const model of ['alpha-image-edit', 'image-pro-edit']) {
        const reply = await client().postJson('/v1/images/edits', {
          model,
          prompt: 'make it blue',
          images: [{ image_url: pngDataUrl }],
          output_format: 'png',
          quality: 'standard',
          size: '20x10',
        });
        expect(reply.status, `${model} ${reply.text}`).toBe(200);
        expectImageResult(reply.json, { format: 'png', quality: 'medium', size: '20x10' });
      }
    });

    it('refuses an external image URL, naming the field', async () => {
      const reply = await client().postJson('/v1/images/edits', {
        model: 'alpha-image-edit',
        prompt: 'x',
        images: [{ image_url: 'file:///etc/passwd' }],
        output_format: 'png',
        quality: 'low',
        size: '16x16',
      });
      expectNativeError(reply, 400, { param: 'images[0].image_url' });
    });
  });
}
