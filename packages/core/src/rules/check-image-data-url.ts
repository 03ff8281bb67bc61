import { GatewayError } from '../errors/gateway-error.js';
import { isSplitDataUrl, type SplitDataUrl } from '../images/split-data-url.js';
import { parseDataUrl, parseSplitDataUrl } from '../images/parse-data-url.js';
import { probeImageHeader } from '../images/read-image-header.js';
import type { ImageHeader } from '../images/read-image-header.js';

/** docs/design.md: any side of an input image over 4096 px is refused. */
export const defaultMaxImageSide = 4096;

/** Media types the gateway accepts in image data URLs, and the format each must hold. */
const acceptedMimeTypes: Readonly<Record<string, ImageHeader['format']>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  // Not registered, but common enough in the wild to accept as JPEG.
  'image/jpg': 'jpeg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

// Enough for every PNG, GIF and WebP header and most JPEGs; a JPEG whose APPn segments (EXIF, ICC,
// XMP) come first asks for more, and only then is more decoded.
const firstPrefixBytes = 4096;

function notADataUrl(param: string): GatewayError {
  return GatewayError.invalidParameter(
    param,
    `Invalid value for '${param}': only base64 data URLs of PNG, JPEG, WebP or GIF images are accepted (data:image/png;base64,...); image URLs are not supported and the gateway never fetches URLs.`,
  );
}

function unreadable(param: string, reason: string): GatewayError {
  return GatewayError.invalidParameter(param, `Invalid value for '${param}': ${reason}`);
}

/**
 * Checks that an image field holds a base64 data URL of a readable PNG, JPEG, WebP or GIF image
 * whose sides are within `maxSide` (default 4096 px), reading only its header. Every failure is a
 * 400 naming `param`; the value is never fetched.
 */
export function checkImageDataUrl(
  value: string | SplitDataUrl,
  param: string,
  options: { maxSide?: number } = {},
): ImageHeader {
  const maxSide = options.maxSide ?? defaultMaxImageSide;
  const dataUrl = isSplitDataUrl(value) ? parseSplitDataUrl(value) : parseDataUrl(value);
  if (dataUrl === undefined || !dataUrl.base64) throw notADataUrl(param);
  const declared = acceptedMimeTypes[dataUrl.mimeType];
  if (declared === undefined) throw notADataUrl(param);

  let prefix = Math.min(firstPrefixBytes, dataUrl.byteLength);
  let header: ImageHeader | undefined;
  for (;;) {
    const bytes = dataUrl.decodePrefix(prefix);
    if (bytes === undefined) throw unreadable(param, 'the data URL payload is not valid base64.');
    const probe = probeImageHeader(bytes);
    if (probe.kind === 'header') {
      header = probe.header;
      break;
    }
    if (probe.kind === 'invalid' || prefix >= dataUrl.byteLength) {
      throw unreadable(
        param,
        `the image data could not be read as ${declared.toUpperCase()} (corrupt, truncated or not an image).`,
      );
    }
    // Doubling bounds the total decoding work at twice the bytes the header really needs.
    prefix = Math.min(dataUrl.byteLength, Math.max(probe.needed, prefix * 2));
  }

  if (header.format !== declared) {
    // The upstream trusts the declared type; a mislabelled image would fail there with a vaguer error.
    throw unreadable(
      param,
      `the data URL says ${dataUrl.mimeType} but the data is a ${header.format.toUpperCase()} image.`,
    );
  }
  if (header.width > maxSide || header.height > maxSide) {
    throw unreadable(
      param,
      `the image is ${header.width}x${header.height} pixels; each side may be at most ${maxSide} pixels.`,
    );
  }
  return header;
}
