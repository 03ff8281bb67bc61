import sharp from 'sharp';
import type { ImageFormat, ImageQuality } from './image-request.js';

const lossyQuality: Record<ImageQuality, number> = { low: 50, medium: 75, high: 92 };
// PNG is lossless: quality only buys compression effort.
const pngCompression: Record<ImageQuality, number> = { low: 3, medium: 6, high: 9 };

/** Encodes raw RGB pixels, labelled in the EXIF description as made by the local backend. */
export async function encodeImage(
  pixels: Uint8Array,
  width: number,
  height: number,
  format: ImageFormat,
  quality: ImageQuality,
  prompt: string,
): Promise<Uint8Array> {
  const image = sharp(pixels, { raw: { width, height, channels: 3 } }).withExif({
    IFD0: {
      ImageDescription: `infergate local backend: ${prompt.slice(0, 200)}`,
      Software: 'infergate-local-backend',
    },
  });
  const encoded =
    format === 'png'
      ? image.png({ compressionLevel: pngCompression[quality] })
      : format === 'jpeg'
        ? image.jpeg({ quality: lossyQuality[quality] })
        : image.webp({ quality: lossyQuality[quality] });
  return new Uint8Array(await encoded.toBuffer());
}

/** Standard base64 of bytes, without Node's Buffer so the Web handler stays runtime-neutral. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  return btoa(binary);
}
