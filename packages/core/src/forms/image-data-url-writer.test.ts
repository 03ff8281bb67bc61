import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../errors/gateway-error.js';
import {
  gifBytes,
  jpegBytes,
  pngBytes,
  toDataUrl,
  webpLossyBytes,
} from '../images/test-image-bytes.js';
import { ImageDataUrlWriter } from './image-data-url-writer.js';

/** `bytes` written in chunks of `size` bytes (the last one shorter), as a reader hands them over. */
function written(
  bytes: Uint8Array,
  size: number,
  mediaType: string | undefined,
  field = 'image',
): string {
  const writer = new ImageDataUrlWriter(field, mediaType);
  for (let start = 0; start < bytes.byteLength; start += size)
    writer.write(bytes.subarray(start, start + size));
  return writer.end().dataUrl.toJSON();
}

function refusal(run: () => unknown): { status: number; param: string | null } {
  try {
    run();
  } catch (error) {
    if (isGatewayError(error)) return { status: error.status, param: error.param };
    throw error;
  }
  throw new Error('expected a refusal');
}

// A payload whose length is no multiple of three, so chunk edges fall inside base64's triples.
const photo = new Uint8Array([
  ...pngBytes(640, 480),
  ...Array.from({ length: 1000 }, (_, i) => i % 251),
]);

describe('ImageDataUrlWriter', () => {
  it('writes the data URL RFC 2397 defines, whatever the chunk sizes', () => {
    const expected = toDataUrl('image/png', photo);
    for (const size of [1, 2, 3, 4, 5, 7, 64, photo.byteLength])
      expect(written(photo, size, 'image/png'), `chunks of ${size}`).toBe(expected);
  });

  it("keeps the part's image media type, without its parameters", () => {
    expect(written(photo, 100, 'Image/PNG; charset=binary')).toBe(toDataUrl('image/png', photo));
  });

  it('takes the media type from the first bytes when the part says application/octet-stream or nothing', () => {
    const cases = [
      ['image/png', pngBytes(4, 4)],
      ['image/jpeg', jpegBytes(4, 4)],
      ['image/gif', gifBytes(4, 4)],
      ['image/webp', webpLossyBytes(4, 4)],
    ] as const;
    for (const [mediaType, bytes] of cases) {
      expect(written(bytes, 1, 'application/octet-stream')).toBe(toDataUrl(mediaType, bytes));
      expect(written(bytes, 5, undefined)).toBe(toDataUrl(mediaType, bytes));
    }
  });

  it('keeps the URL split: its head and the payload, joined only by toJSON', () => {
    const writer = new ImageDataUrlWriter('image', 'image/png');
    writer.write(photo);
    const { dataUrl } = writer.end();
    expect([dataUrl.head, dataUrl.payload]).toEqual(toDataUrl('image/png', photo).split(/(?<=,)/));
  });

  it('refuses an empty file and a file that is no image, naming the field', () => {
    expect(refusal(() => new ImageDataUrlWriter('mask', 'image/png').end())).toEqual({
      status: 400,
      param: 'mask',
    });
    const text = new TextEncoder().encode('not an image at all');
    expect(refusal(() => written(text, 4, 'text/plain', 'image[]'))).toEqual({
      status: 400,
      param: 'image[]',
    });
  });
});
