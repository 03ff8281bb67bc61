import type { UpstreamTarget } from '../../ports/ports.js';
import type { ImageUpstreamRequestOptions, UpstreamPathAndBody } from '../upstream-protocol.js';

/**
 * The request to an upstream of protocol `images` (JSON form). Only what the
 * spec supports is sent: one image, inline as b64_json; the "accepted and ignored" fields stay behind.
 */
export function imageUpstreamRequest(
  target: UpstreamTarget,
  options: ImageUpstreamRequestOptions,
): UpstreamPathAndBody {
  const body: Record<string, unknown> = {
    model: target.model,
    prompt: options.prompt,
    n: 1,
    size: options.size,
    quality: options.quality,
    output_format: options.outputFormat,
    response_format: 'b64_json',
  };
  if (options.images === undefined) return { path: '/v1/images/generations', body };
  return {
    path: '/v1/images/edits',
    body: { ...body, images: options.images.map((image) => ({ image_url: image.image_url })) },
  };
}
