import { describe, expect, it } from 'vitest';
import { schemaCases } from '../../test/schema-cases.js';
import { imageEditRequestSchema } from './image-edit-request-schema.js';

const image = { image_url: 'data:image/png;base64,AAAA' };
const valid = {
  model: 'alpha-image-edit',
  prompt: 'make the sky purple',
  images: [image],
  output_format: 'webp',
  quality: 'auto',
  size: '1024x768',
};

const { parse, failure } = schemaCases(imageEditRequestSchema);

describe('imageEditRequestSchema', () => {
  it('accepts the required fields', () => {
    expect(parse(valid)).toEqual(valid);
  });

  it.each(['prompt', 'model', 'images', 'output_format', 'quality', 'size'])(
    'requires %s',
    (field) => {
      const body: Record<string, unknown> = { ...valid };
      delete body[field];
      expect(failure(body)).toMatchObject({ status: 400, code: 'missing_parameter', param: field });
    },
  );

  it('takes 1 to 16 images', () => {
    expect(parse({ ...valid, images: new Array(16).fill(image) }).images).toHaveLength(16);
    expect(failure({ ...valid, images: new Array(17).fill(image) })).toMatchObject({
      status: 400,
      param: 'images',
    });
    expect(failure({ ...valid, images: [] })).toMatchObject({ status: 400, param: 'images' });
  });

  it('names the image item that is malformed', () => {
    expect(failure({ ...valid, images: [image, { image_url: 7 }] })).toMatchObject({
      status: 400,
      param: 'images[1].image_url',
    });
    expect(failure({ ...valid, images: [image, 'data:image/png;base64,AAAA'] })).toMatchObject({
      status: 400,
      param: 'images[1]',
    });
    // A stored file cannot be referenced (the gateway stores none): image_url is missing, file_id unknown.
    expect(failure({ ...valid, images: [{ file_id: 'file-1' }] })).toMatchObject({
      status: 400,
      code: 'missing_parameter',
      param: 'images[0].image_url',
    });
    expect(failure({ ...valid, images: [{ ...image, file_id: 'file-1' }] })).toMatchObject({
      status: 400,
      code: 'unknown_parameter',
      param: 'images[0].file_id',
    });
  });

  it('accepts the ignored fields, a mask among them', () => {
    const body = {
      ...valid,
      background: 'opaque',
      input_fidelity: 'high',
      mask: image,
      moderation: 'auto',
      output_compression: 0,
      partial_images: 2,
      stream: false,
      user: 'u',
    };
    expect(parse(body)).toEqual(body);
  });

  it('accepts every "accepted and ignored" field with any value (spec): a mask of any shape, stream: true', () => {
    const odd = {
      background: true,
      input_fidelity: 3,
      mask: { file_id: 'file-1' },
      moderation: false,
      output_compression: 150,
      partial_images: 'two',
      stream: true,
      user: { id: 1 },
    };
    expect(parse({ ...valid, ...odd })).toMatchObject(odd);
    expect(parse({ ...valid, mask: 'data:image/png;base64,AAAA' }).mask).toBe(
      'data:image/png;base64,AAAA',
    );
  });

  it('still refuses style (a generations field), n: 2 and response_format url', () => {
    expect(failure({ ...valid, style: 'vivid' })).toMatchObject({
      status: 400,
      code: 'unknown_parameter',
      param: 'style',
    });
    expect(failure({ ...valid, n: 2 })).toMatchObject({ status: 400, param: 'n' });
    expect(failure({ ...valid, response_format: 'url' })).toMatchObject({
      status: 400,
      param: 'response_format',
    });
  });

  it('applies the 2 MiP size limit to edits too (docs/design.md)', () => {
    expect(parse({ ...valid, size: '1024x2048' }).size).toBe('1024x2048');
    expect(failure({ ...valid, size: '1025x2048' })).toMatchObject({ status: 400, param: 'size' });
  });
});
