import type { ImageHeader } from '../images/read-image-header.js';
import { isSplitDataUrl, type ImageInput, type SplitDataUrl } from '../images/split-data-url.js';
import { checkImageDataUrl } from './check-image-data-url.js';

/** The mask's `image_url` when the (otherwise ignored) mask has one as a string (or a form's file). */
function maskImageUrl(mask: unknown): string | SplitDataUrl | undefined {
  if (typeof mask !== 'object' || mask === null) return undefined;
  const url = (mask as Record<string, unknown>).image_url;
  return typeof url === 'string' || isSplitDataUrl(url) ? url : undefined;
}

/**
 * Every image field of an edit request must be a base64 data URL of a readable image within 4096 px
 * a side (fault matrix rows 8 and 9): `images[i].image_url`, and `mask.image_url` although the mask is
 * not forwarded. Returns the headers of `images`, in order.
 */
export function checkImageEditInputs(request: {
  images: readonly ImageInput[];
  mask?: unknown;
}): ImageHeader[] {
  const headers = request.images.map((image, index) =>
    checkImageDataUrl(image.image_url, `images[${index}].image_url`),
  );
  const mask = maskImageUrl(request.mask);
  if (mask !== undefined) checkImageDataUrl(mask, 'mask.image_url');
  return headers;
}
