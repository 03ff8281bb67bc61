import type { ImageHeader } from '../images/read-image-header.js';
import type { ImageEditRequest } from '../schemas/image-edit-request-schema.js';
import { checkImageDataUrl } from './check-image-data-url.js';

/** The mask's `image_url` when the (otherwise ignored) mask has one as a string. */
function maskImageUrl(mask: unknown): string | undefined {
  if (typeof mask !== 'object' || mask === null) return undefined;
  const url = (mask as Record<string, unknown>).image_url;
  return typeof url === 'string' ? url : undefined;
}

/**
 * Every image field of an edit request must be a base64 data URL of a readable image within 4096 px
 * a side (fault matrix rows 8 and 9): `images[i].image_url`, and `mask.image_url` although the mask is
 * not forwarded. Returns the headers of `images`, in order.
 */
export function checkImageEditInputs(
  request: Pick<ImageEditRequest, 'images' | 'mask'>,
): ImageHeader[] {
  const headers = request.images.map((image, index) =>
    checkImageDataUrl(image.image_url, `images[${index}].image_url`),
  );
  const mask = maskImageUrl(request.mask);
  if (mask !== undefined) checkImageDataUrl(mask, 'mask.image_url');
  return headers;
}
