import { z } from 'zod';
import { ignoredImageField, imageRequestFields } from './image-request-fields.js';

/** Body of POST /v1/images/generations (spec); `style` is one more "accepted and ignored" field. */
export const imageGenerationRequestSchema = z.strictObject({
  ...imageRequestFields,
  style: ignoredImageField,
});

export type ImageGenerationRequest = z.infer<typeof imageGenerationRequestSchema>;
