import type { ImageHeader } from '../images/read-image-header.js';
import type { ImageEditRequest } from '../schemas/image-edit-request-schema.js';
import { checkImageDataUrl } from './check-image-data-url.js';

/**
 * Every image field of an edit request must be a base64 data URL of a readable image within 4096 px
 * a side (fault matrix rows 8 and 9): `images[i].image_url`, and `mask.image_url` although the mask is
 * not forwarded. Returns the headers of `images`, in order.
 */
export function checkImageEditInputs(request: Pick<ImageEditRequest, 'images' | 'mask'>): ImageHeader[] {
  const headers = request.images.map((image, index) => checkImageDataUrl(image.image_url, `images[${index}].image_url`));
  if (request.mask) checkImageDataUrl(request.mask.image_url, 'mask.image_url');
  return headers;
}
