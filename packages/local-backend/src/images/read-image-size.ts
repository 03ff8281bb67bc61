import sharp from 'sharp';
import { VllmError } from '../http/vllm-error.js';

/** Reads an encoded image's dimensions from its header; unreadable data is a 400 naming `param`. */
export async function readImageSize(
  bytes: Uint8Array,
  param: string,
): Promise<{ width: number; height: number }> {
  try {
    const metadata = await sharp(bytes).metadata();
    if (metadata.width === undefined || metadata.height === undefined)
      throw new Error('no dimensions');
    return { width: metadata.width, height: metadata.height };
  } catch {
    throw VllmError.badRequest('The image could not be decoded.', param);
  }
}
