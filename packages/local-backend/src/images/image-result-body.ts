import type { ImageFormat, ImageQuality } from './image-request.js';

// Output tokens grow with the pixel count, as image models bill 32x32-ish tiles, scaled by quality.
const tokensPerTile: Record<ImageQuality, number> = { low: 0.25, medium: 1, high: 4 };

/**
 * The spec's image result object. Its shown results report input_tokens and total_tokens as 0 beside a large
 * output_tokens; this backend reproduces that upstream shape rather than correcting it.
 */
export function imageResultBody(
  images: readonly string[],
  width: number,
  height: number,
  format: ImageFormat,
  quality: ImageQuality,
): Record<string, unknown> {
  const outputTokens =
    Math.ceil(((width * height) / 1024) * tokensPerTile[quality]) * images.length;
  return {
    created: Math.floor(Date.now() / 1000),
    data: images.map((b64) => ({ b64_json: b64 })),
    usage: {
      total_tokens: 0,
      input_tokens: 0,
      output_tokens: outputTokens,
      input_tokens_details: { text_tokens: 0, image_tokens: 0 },
    },
    output_format: format,
    quality,
    size: `${width}x${height}`,
  };
}
