import { VllmError } from '../http/vllm-error.js';

export interface DataUrlImage {
  mimeType: string;
  bytes: Uint8Array;
}

const dataUrlPattern = /^data:([a-z0-9.+/-]+)?(;[^,]*)?,/i;

/**
 * Decodes a base64 `data:` URL. This backend never fetches remote URLs (nor does the gateway), so any other
 * URL is a 400 naming `param`.
 */
export function decodeDataUrl(url: string, param: string): DataUrlImage {
  const match = dataUrlPattern.exec(url);
  if (match === null)
    throw VllmError.badRequest(
      'Only base64 data URLs are supported for images; this server does not fetch URLs.',
      param,
    );
  const parameters = match[2] ?? '';
  if (!/;base64$/i.test(parameters))
    throw VllmError.badRequest('Image data URLs must be base64-encoded.', param);
  const payload = url.slice(match[0].length);
  let binary: string;
  try {
    binary = atob(payload);
  } catch {
    throw VllmError.badRequest('The image data URL is not valid base64.', param);
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return { mimeType: (match[1] ?? 'application/octet-stream').toLowerCase(), bytes };
}
