import { describe, expect, it } from 'vitest';
import { imageUpstreamRequest } from './image-upstream-request.js';

describe('imageUpstreamRequest', () => {
  it('posts a generation to /v1/images/generations with one b64_json image', () => {
    expect(
      imageUpstreamRequest(
        { protocol: 'images', model: 'served-image' },
        { prompt: 'a fox', size: '1024x768', quality: 'medium', outputFormat: 'webp' },
      ),
    ).toEqual({
      path: '/v1/images/generations',
      body: {
        model: 'served-image',
        prompt: 'a fox',
        n: 1,
        size: '1024x768',
        quality: 'medium',
        output_format: 'webp',
        response_format: 'b64_json',
      },
    });
  });

  it('posts an edit to /v1/images/edits with its images in the JSON form', () => {
    const images = [
      { image_url: 'data:image/png;base64,AAAA' },
      { image_url: 'data:image/jpeg;base64,BBBB' },
    ];
    expect(
      imageUpstreamRequest(
        { protocol: 'images', model: 'served-edit' },
        { prompt: 'purple sky', size: '512x512', quality: 'high', outputFormat: 'png', images },
      ),
    ).toEqual({
      path: '/v1/images/edits',
      body: {
        model: 'served-edit',
        prompt: 'purple sky',
        n: 1,
        size: '512x512',
        quality: 'high',
        output_format: 'png',
        response_format: 'b64_json',
        images,
      },
    });
  });
});
