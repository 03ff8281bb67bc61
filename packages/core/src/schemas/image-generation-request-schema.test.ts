import { describe, expect, it } from 'vitest';
import { schemaCases } from '../../test/schema-cases.js';
import { imageGenerationRequestSchema } from './image-generation-request-schema.js';
import { maxImagePixels, parseImageSize } from './image-request-fields.js';

const valid = {
  model: 'alpha-image',
  prompt: 'a red fox in snow',
  output_format: 'png',
  quality: 'high',
  size: '1024x1024',
};

const { parse, failure } = schemaCases(imageGenerationRequestSchema);

describe('imageGenerationRequestSchema', () => {
  it('accepts the five required fields', () => {
    expect(parse(valid)).toEqual(valid);
  });

  it.each(['prompt', 'model', 'output_format', 'quality', 'size'])(
    'requires %s (spec: required)',
    (field) => {
      const body: Record<string, unknown> = { ...valid };
      delete body[field];
      expect(failure(body)).toMatchObject({ status: 400, code: 'missing_parameter', param: field });
    },
  );

  it('refuses an empty or blank prompt', () => {
    expect(failure({ ...valid, prompt: '' })).toMatchObject({ status: 400, param: 'prompt' });
    expect(failure({ ...valid, prompt: '  \n ' })).toMatchObject({ status: 400, param: 'prompt' });
  });

  it('accepts png, jpeg and webp and nothing else as output_format', () => {
    for (const format of ['png', 'jpeg', 'webp'])
      expect(parse({ ...valid, output_format: format }).output_format).toBe(format);
    expect(failure({ ...valid, output_format: 'gif' })).toMatchObject({
      status: 400,
      param: 'output_format',
    });
  });

  it('accepts the six qualities of the spec and nothing else', () => {
    for (const quality of ['low', 'medium', 'standard', 'high', 'hd', 'auto'])
      expect(parse({ ...valid, quality }).quality).toBe(quality);
    expect(failure({ ...valid, quality: 'ultra' })).toMatchObject({
      status: 400,
      param: 'quality',
    });
  });

  it('accepts a size of exactly 2,097,152 pixels and refuses one more', () => {
    expect(maxImagePixels).toBe(2_097_152);
    expect(parse({ ...valid, size: '2048x1024' }).size).toBe('2048x1024');
    expect(parse({ ...valid, size: '2097152x1' }).size).toBe('2097152x1');
    // 2,097,153 = 3 x 699,051: one pixel over the limit.
    expect(failure({ ...valid, size: '699051x3' })).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      param: 'size',
    });
    expect(failure({ ...valid, size: '2049x1024' })).toMatchObject({ status: 400, param: 'size' });
  });

  it.each([
    '1024',
    '0x512',
    '512x0',
    '-512x512',
    '512X512',
    '512 x 512',
    '0512x512',
    '1.5x2',
    'auto',
    '',
    '1024x1024x1',
  ])('refuses the size %j', (size) => {
    expect(failure({ ...valid, size })).toMatchObject({ status: 400, param: 'size' });
  });

  it('reads a size as numbers', () => {
    expect(parseImageSize('1536x1024')).toEqual({ width: 1536, height: 1024 });
    expect(parseImageSize('2049x1024')).toBeUndefined();
  });

  it('accepts n of 0 or 1 and refuses any other count', () => {
    expect(parse({ ...valid, n: 1 }).n).toBe(1);
    expect(parse({ ...valid, n: 0 }).n).toBe(0);
    expect(parse({ ...valid, n: null }).n).toBeNull();
    for (const n of [2, 10, -1, 1.5, '1'])
      expect(failure({ ...valid, n })).toMatchObject({ status: 400, param: 'n' });
  });

  it('accepts response_format b64_json only', () => {
    expect(parse({ ...valid, response_format: 'b64_json' }).response_format).toBe('b64_json');
    const url = failure({ ...valid, response_format: 'url' });
    expect(url).toMatchObject({ status: 400, code: 'invalid_parameter', param: 'response_format' });
    expect(url.message).toContain('b64_json');
    expect(failure({ ...valid, response_format: 'png' })).toMatchObject({
      status: 400,
      param: 'response_format',
    });
  });

  it('accepts the ignored fields with sane types', () => {
    const body = {
      ...valid,
      background: 'transparent',
      moderation: 'low',
      output_compression: 80,
      partial_images: 0,
      stream: false,
      style: 'vivid',
      user: 'u-1',
    };
    expect(parse(body)).toEqual(body);
  });

  it('accepts every "accepted and ignored" field with any value (spec), stream: true among them', () => {
    const odd = {
      background: true,
      moderation: 7,
      output_compression: 150,
      partial_images: -3,
      stream: true,
      style: { name: 'vivid' },
      user: ['u'],
    };
    expect(parse({ ...valid, ...odd })).toMatchObject(odd);
    const nulls = {
      background: null,
      moderation: null,
      output_compression: null,
      partial_images: null,
      stream: null,
      style: null,
      user: null,
    };
    expect(parse({ ...valid, ...nulls })).toMatchObject(nulls);
  });

  it('refuses edit-only and unknown fields by name', () => {
    expect(failure({ ...valid, images: [] })).toMatchObject({
      status: 400,
      code: 'unknown_parameter',
      param: 'images',
    });
    expect(failure({ ...valid, qualty: 'high' })).toMatchObject({
      status: 400,
      code: 'unknown_parameter',
      param: 'qualty',
    });
  });
});
