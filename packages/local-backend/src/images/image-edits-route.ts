import sharp from 'sharp';
import { readJsonBody } from '../http/read-json-body.js';
import type { RouteContext } from '../http/route-context.js';
import { VllmError } from '../http/vllm-error.js';
import { decodeDataUrl } from './decode-data-url.js';
import { bytesToBase64, encodeImage } from './encode-image.js';
import { formatForSize } from './format-for-size.js';
import { imagePattern } from './image-pattern.js';
import { maxImagePixels, parseImageRequest } from './image-request.js';
import { imageResultBody } from './image-result-body.js';
import { readImageSize } from './read-image-size.js';

/** How strongly the prompt's pattern shows through the edited image: clearly visible, input still recognisable. */
const overlay = 0.35;

/**
 * `POST /v1/images/edits`, JSON form: the first of `images` resized (cover) to `size` (default: its own size)
 * and blended with the prompt-seeded pattern, so the change is visible and deterministic.
 */
export async function imageEditsRoute(request: Request, context: RouteContext): Promise<Response> {
  const body = await readJsonBody(request);
  const image = parseImageRequest(body);
  context.registry.resolveKind(image.model, ['image-edit'], 'Images');
  const source = firstImageBytes(body.images);
  const size = image.size ?? (await readImageSize(source, 'images[0].image_url'));
  if (size.width * size.height > maxImagePixels)
    throw VllmError.badRequest(
      `The output size must be at most ${maxImagePixels} pixels; pass a smaller size.`,
      'size',
    );
  const format = formatForSize(image.outputFormat, size.width, size.height);
  let input: Uint8Array;
  try {
    input = new Uint8Array(
      await sharp(source)
        .resize(size.width, size.height, { fit: 'cover' })
        .removeAlpha()
        .toColourspace('srgb')
        .raw()
        .toBuffer(),
    );
  } catch {
    throw VllmError.badRequest('The image could not be decoded.', 'images[0].image_url');
  }
  const images: string[] = [];
  for (let index = 0; index < image.n; index += 1) {
    const pattern = imagePattern(
      index === 0 ? image.prompt : `${image.prompt}\u0000${index}`,
      size.width,
      size.height,
    );
    const blended = new Uint8Array(input.length);
    for (let offset = 0; offset < input.length; offset += 1)
      blended[offset] = (input[offset] ?? 0) * (1 - overlay) + (pattern[offset] ?? 0) * overlay;
    images.push(
      bytesToBase64(
        await encodeImage(blended, size.width, size.height, format, image.quality, image.prompt),
      ),
    );
  }
  return Response.json(imageResultBody(images, size.width, size.height, format, image.quality));
}

function firstImageBytes(images: unknown): Uint8Array {
  if (!Array.isArray(images) || images.length === 0)
    throw VllmError.badRequest('`images` must be a list of 1 to 16 {image_url} objects.', 'images');
  if (images.length > 16) throw VllmError.badRequest('At most 16 images may be given.', 'images');
  const first: unknown = images[0];
  const url =
    typeof first === 'object' && first !== null
      ? (first as Record<string, unknown>).image_url
      : undefined;
  if (typeof url !== 'string')
    throw VllmError.badRequest(
      'Each image must be an object {image_url: <base64 data URL>}; file_id is not supported.',
      'images[0].image_url',
    );
  return decodeDataUrl(url, 'images[0].image_url').bytes;
}
