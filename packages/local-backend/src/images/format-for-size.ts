import type { ImageFormat } from './image-request.js';

// The encoders' own ceilings: libjpeg stops at 65,500 px a side, libwebp at 16,383. PNG holds any 2 MiP size.
const maxSide: Record<ImageFormat, number> = {
  png: Number.POSITIVE_INFINITY,
  jpeg: 65_500,
  webp: 16_383,
};

/**
 * The format an image of this size is written in: the requested one when it can hold the size, else PNG. The
 * gateway accepts every `WxH` up to 2 MiP (a 1x2097152 strip included), so a size JPEG or WebP cannot encode is
 * answered as a PNG, and the result's `output_format` says so, rather than refused.
 */
export function formatForSize(requested: ImageFormat, width: number, height: number): ImageFormat {
  return Math.max(width, height) <= maxSide[requested] ? requested : 'png';
}
