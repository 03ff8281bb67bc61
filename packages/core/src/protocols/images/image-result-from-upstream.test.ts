import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../errors/gateway-error.js';
import { imageResultFromUpstream } from './image-result-from-upstream.js';

const defaults = {
  created: 1_767_225_600,
  outputFormat: 'png',
  quality: 'medium',
  size: '1024x1024',
};

describe('imageResultFromUpstream', () => {
  it('shapes an ImagesResponse as the spec image result object, dropping fields the spec does not list', () => {
    const upstream = {
      created: 1,
      background: 'opaque',
      data: [{ b64_json: 'iVBORw0KGgo=', revised_prompt: 'x' }],
      output_format: 'png',
      quality: 'medium',
      size: '1024x1024',
      usage: {
        input_tokens: 0,
        output_tokens: 4160,
        total_tokens: 4160,
        input_tokens_details: { text_tokens: 0, image_tokens: 0 },
        output_tokens_details: { image_tokens: 4160, text_tokens: 0 },
      },
    };
    expect(imageResultFromUpstream(upstream, defaults)).toEqual({
      created: 1_767_225_600,
      data: [{ b64_json: 'iVBORw0KGgo=' }],
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
  });

  it('keeps the key order of the spec', () => {
    const result = imageResultFromUpstream({ data: [{ b64_json: 'AA==' }] }, defaults);
    expect(Object.keys(result)).toEqual([
      'created',
      'data',
      'usage',
      'output_format',
      'quality',
      'size',
    ]);
  });

  it('fills what the upstream leaves out from the request, usage as zeros', () => {
    expect(
      imageResultFromUpstream(
        { data: [{ b64_json: 'AA==' }] },
        { ...defaults, outputFormat: 'jpeg', quality: 'high', size: '640x480' },
      ),
    ).toEqual({
      created: 1_767_225_600,
      data: [{ b64_json: 'AA==' }],
      usage: {
        total_tokens: 0,
        input_tokens: 0,
        output_tokens: 0,
        input_tokens_details: { text_tokens: 0, image_tokens: 0 },
      },
      output_format: 'jpeg',
      quality: 'high',
      size: '640x480',
    });
  });

  it('adds input and output tokens when the upstream gives no total', () => {
    expect(
      imageResultFromUpstream(
        { data: [{ b64_json: 'AA==' }], usage: { input_tokens: 12, output_tokens: 30 } },
        defaults,
      ).usage.total_tokens,
    ).toBe(42);
  });

  it.each([
    ['no data', { created: 1 }],
    ['empty data', { data: [] }],
    ['a URL instead of b64_json', { data: [{ url: 'https://cdn.example.com/x.png' }] }],
    ['an empty b64_json', { data: [{ b64_json: '' }] }],
    ['negative tokens', { data: [{ b64_json: 'AA==' }], usage: { output_tokens: -1 } }],
    ['not an object', 'ok'],
    ['nothing', undefined],
  ])('answers 502 upstream_error for %s', (_name, body) => {
    try {
      imageResultFromUpstream(body, defaults);
    } catch (error) {
      expect(isGatewayError(error) && { status: error.status, code: error.code }).toEqual({
        status: 502,
        code: 'upstream_error',
      });
      return;
    }
    throw new Error('expected a failure');
  });
});
