import type { ImageQuality } from '../schemas/image-request-fields.js';

/** The qualities an images upstream is sent. */
export type UpstreamImageQuality = 'low' | 'medium' | 'high';

const upstreamQuality: Readonly<Record<ImageQuality, UpstreamImageQuality>> = {
  low: 'low',
  medium: 'medium',
  // docs/design.md: standard and auto map to medium, hd maps to high, before the upstream call.
  standard: 'medium',
  auto: 'medium',
  high: 'high',
  hd: 'high',
};

/** The quality sent upstream for a requested one (docs/design.md's image quality row). */
export function imageQualityRule(quality: ImageQuality): UpstreamImageQuality {
  return upstreamQuality[quality];
}
