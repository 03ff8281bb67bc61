import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/gateway-error.js';
import {
  gifBytes,
  jpegBytes,
  pngBytes,
  ssrfImageValues,
  toDataUrl,
  webpLosslessBytes,
} from '../images/test-image-bytes.js';
import { checkImageDataUrl } from './check-image-data-url.js';

function failure(value: string, options?: { maxSide?: number }) {
  try {
    checkImageDataUrl(value, 'images[2].image_url', options);
  } catch (error) {
    if (isGatewayError(error))
      return { status: error.status, code: error.code, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a failure');
}

describe('checkImageDataUrl', () => {
  it('returns the header of each accepted format', () => {
    expect(checkImageDataUrl(toDataUrl('image/png', pngBytes(64, 32)), 'p')).toEqual({
      format: 'png',
      width: 64,
      height: 32,
      bitDepth: 8,
    });
    expect(checkImageDataUrl(toDataUrl('image/jpeg', jpegBytes(4096, 4096)), 'p')).toEqual({
      format: 'jpeg',
      width: 4096,
      height: 4096,
      bitDepth: 8,
    });
    expect(checkImageDataUrl(toDataUrl('image/jpg', jpegBytes(1, 1)), 'p')).toMatchObject({
      format: 'jpeg',
    });
    expect(checkImageDataUrl(toDataUrl('image/webp', webpLosslessBytes(7, 9)), 'p')).toEqual({
      format: 'webp',
      width: 7,
      height: 9,
      bitDepth: 8,
    });
    expect(checkImageDataUrl(toDataUrl('image/gif', gifBytes(5, 6)), 'p')).toEqual({
      format: 'gif',
      width: 5,
      height: 6,
      bitDepth: 8,
    });
  });

  it('finds a JPEG frame header behind 200 KiB of APP segments', () => {
    expect(
      checkImageDataUrl(
        toDataUrl('image/jpeg', jpegBytes(1024, 768, { appBytes: 200 * 1024 })),
        'p',
      ),
    ).toMatchObject({ width: 1024, height: 768 });
  });

  it.each(ssrfImageValues)('refuses %s as not a base64 data URL, naming the field', (value) => {
    const error = failure(value);
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      param: 'images[2].image_url',
    });
    expect(error.message).toContain('only base64 data URLs');
    expect(error.message).toContain('never fetches URLs');
  });

  it('refuses a non-base64 data URL and an image type it cannot read', () => {
    expect(failure('data:image/png,%89PNG')).toMatchObject({
      status: 400,
      param: 'images[2].image_url',
    });
    expect(failure(toDataUrl('image/svg+xml', new TextEncoder().encode('<svg/>')))).toMatchObject({
      status: 400,
      param: 'images[2].image_url',
    });
  });

  it('refuses a PNG of 4097x10 and a JPEG 5000 px wide, naming the limit (fault matrix row 9)', () => {
    const png = failure(toDataUrl('image/png', pngBytes(4097, 10)));
    expect(png).toMatchObject({ status: 400, param: 'images[2].image_url' });
    expect(png.message).toContain('4096');
    expect(failure(toDataUrl('image/jpeg', jpegBytes(5000, 10)))).toMatchObject({
      status: 400,
      param: 'images[2].image_url',
    });
    expect(failure(toDataUrl('image/png', pngBytes(10, 4097)))).toMatchObject({ status: 400 });
  });

  it('applies a smaller maxSide', () => {
    expect(
      checkImageDataUrl(toDataUrl('image/png', pngBytes(100, 100)), 'p', { maxSide: 100 }),
    ).toMatchObject({ width: 100 });
    expect(failure(toDataUrl('image/png', pngBytes(101, 100)), { maxSide: 100 }).message).toContain(
      '100 pixels',
    );
  });

  it('refuses truncated headers, garbage and invalid base64', () => {
    expect(failure(toDataUrl('image/png', pngBytes(10, 10).subarray(0, 20)))).toMatchObject({
      status: 400,
      param: 'images[2].image_url',
    });
    expect(
      failure(toDataUrl('image/jpeg', jpegBytes(10, 10, { appBytes: 9000 }).subarray(0, 8000))),
    ).toMatchObject({ status: 400 });
    expect(
      failure(toDataUrl('image/png', new TextEncoder().encode('hello, this is not an image'))),
    ).toMatchObject({ status: 400 });
    expect(failure('data:image/png;base64,')).toMatchObject({ status: 400 });
    expect(failure('data:image/png;base64,iVBO!!!!')).toMatchObject({ status: 400 });
  });

  it('refuses image data that does not match its declared type', () => {
    const error = failure(toDataUrl('image/png', jpegBytes(10, 10)));
    expect(error).toMatchObject({ status: 400, param: 'images[2].image_url' });
    expect(error.message).toContain('JPEG');
  });
});
