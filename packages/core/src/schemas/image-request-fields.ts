import { z } from 'zod';

/** docs/design.md: a generated or edited image is `WxH` with `W*H <= 2,097,152` (2 MiP). */
export const maxImagePixels = 2_097_152;

export interface ImageSize {
  width: number;
  height: number;
}

// Positive integers without leading zeros, so that the size forwarded upstream is the one checked here.
const sizePattern = /^([1-9][0-9]{0,6})x([1-9][0-9]{0,6})$/;

/** `<width>x<height>` as numbers, or undefined when the text is not of that form or over 2 MiP. */
export function parseImageSize(size: string): ImageSize | undefined {
  const match = sizePattern.exec(size);
  if (!match) return undefined;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width * height <= maxImagePixels ? { width, height } : undefined;
}

export const imageSizeSchema = z.string().refine((size) => parseImageSize(size) !== undefined, {
  error: `must be <width>x<height> in pixels (positive integers, e.g. 1024x1024) with width x height at most ${maxImagePixels} (2 megapixels)`,
});

// zod reports a missing enum as a wrong value; parsed as a string first, an absent field is reported
// as missing (missing_parameter), like every other required field.
export const imageQualitySchema = z
  .string()
  .pipe(z.enum(['low', 'medium', 'standard', 'high', 'hd', 'auto']));
export type ImageQuality = z.infer<typeof imageQualitySchema>;

export const imageOutputFormatSchema = z.string().pipe(z.enum(['png', 'jpeg', 'webp']));
export type ImageOutputFormat = z.infer<typeof imageOutputFormatSchema>;

/** `{image_url}` as the JSON edit form sends images; `file_id` needs stored files, which the gateway has none of. */
export const imageReferenceSchema = z.strictObject({ image_url: z.string() });
export type ImageReference = z.infer<typeof imageReferenceSchema>;

/**
 * A field the spec lists as "accepted and ignored": any value (null included) is taken and none is
 * forwarded. The spec promises acceptance, not a type, and clients send these in many shapes
 * (`background: true`, `output_compression: 150`, `stream: true`), so checking them would refuse
 * requests the spec says work, for fields that change nothing.
 */
export const ignoredImageField = z.unknown().optional();

/**
 * The fields generations and edits share (spec tables). The optional ones accept null as "not given",
 * as the completion API documents them.
 */
export const imageRequestFields = {
  prompt: z
    .string()
    .refine((prompt) => prompt.trim().length > 0, { error: 'must be a non-empty string' }),
  model: z.string().min(1),
  output_format: imageOutputFormatSchema,
  quality: imageQualitySchema,
  size: imageSizeSchema,
  // Spec: only 1 accepted, 0 is mapped to 1 (one image per request).
  n: z
    .int()
    .refine((n) => n === 0 || n === 1, {
      error: 'only one image per request is supported: n must be 1 (0 is taken as 1)',
    })
    .nullish(),
  // Spec: only b64_json; the gateway stores nothing, so it has no URL to hand out.
  response_format: z
    .literal('b64_json', {
      error: 'only b64_json is supported: images are returned inline, never as URLs',
    })
    .nullish(),
  // Ignored like the others: `stream: true` gets the one JSON result (spec: "accepted and ignored").
  stream: ignoredImageField,
  background: ignoredImageField,
  moderation: ignoredImageField,
  output_compression: ignoredImageField,
  partial_images: ignoredImageField,
  user: ignoredImageField,
};
