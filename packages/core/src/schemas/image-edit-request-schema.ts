import { z } from 'zod';
import {
  ignoredImageField,
  imageReferenceSchema,
  imageRequestFields,
} from './image-request-fields.js';

/** The JSON edit form allows 1 to 16 input images. */
export const maxEditImages = 16;

/**
 * Body of POST /v1/images/edits (spec; a multipart form is read into this shape first). Each `images[i].image_url`, and a
 * `mask.image_url` when the mask has one, must also be a base64 data URL of a readable image: that is
 * checked after the model is resolved (`checkImageEditInputs`), since it reads image headers.
 */
export const imageEditRequestSchema = z.strictObject({
  ...imageRequestFields,
  images: z
    .array(imageReferenceSchema)
    .min(1, { error: 'at least one image is required' })
    .max(maxEditImages, { error: `at most ${maxEditImages} images are accepted` }),
  input_fidelity: ignoredImageField,
  // Accepted and ignored (spec) whatever its shape; only a `mask.image_url` string is still checked as
  // an image field, so a URL there is refused like anywhere else (docs/design.md, fault matrix row 8).
  mask: ignoredImageField,
});

export type ImageEditRequest = z.infer<typeof imageEditRequestSchema>;
