import type { UpstreamImageQuality } from '../../rules/image-quality-rule.js';
import type { ImageOutputFormat, ImageReference } from '../../schemas/image-request-fields.js';

/** A path on an upstream origin and the JSON body to post there. */
export interface ImageUpstreamCall {
  path: string;
  body: Record<string, unknown>;
}

export interface ImageUpstreamRequestOptions {
  /** The model's name on the upstream (UpstreamTarget.model), never the catalogue id. */
  upstreamModel: string;
  /** The client's prompt, or the enhanced one for the `-pe` models. */
  prompt: string;
  size: string;
  quality: UpstreamImageQuality;
  outputFormat: ImageOutputFormat;
  /** Edits only: the already checked input images. */
  images?: readonly ImageReference[];
}

/**
 * The request to an upstream of protocol `images` (protocols.md 6.2, 6.3, JSON form). Only what the
 * spec supports is sent: one image, inline as b64_json; the "accepted and ignored" fields stay behind.
 */
export function imageUpstreamRequest(options: ImageUpstreamRequestOptions): ImageUpstreamCall {
  const body: Record<string, unknown> = {
    model: options.upstreamModel,
    prompt: options.prompt,
    n: 1,
    size: options.size,
    quality: options.quality,
    output_format: options.outputFormat,
    response_format: 'b64_json',
  };
  if (options.images === undefined) return { path: '/v1/images/generations', body };
  return { path: '/v1/images/edits', body: { ...body, images: options.images.map((image) => ({ image_url: image.image_url })) } };
}
