import { BodyFields } from '../http/body-fields.js';
import { VllmError } from '../http/vllm-error.js';

export type ImageFormat = 'png' | 'jpeg' | 'webp';
export type ImageQuality = 'low' | 'medium' | 'high';

export interface ImageRequest {
  model: string | undefined;
  prompt: string;
  size: { width: number; height: number } | undefined;
  quality: ImageQuality;
  outputFormat: ImageFormat;
  n: number;
}

/** Largest image this server renders: 2 MiP, the gateway's own limit (docs/design.md). */
export const maxImagePixels = 2_097_152;

// OpenAI's quality names: standard and auto are medium, dall-e-3's hd is high.
const qualityAliases: Record<string, ImageQuality> = {
  low: 'low',
  medium: 'medium',
  high: 'high',
  standard: 'medium',
  auto: 'medium',
  hd: 'high',
};

/** The JSON fields shared by generations and edits (OpenAI Images API). */
export function parseImageRequest(body: Record<string, unknown>): ImageRequest {
  const fields = new BodyFields(body);
  const prompt = fields.requiredString('prompt');
  const sizeText = fields.string('size');
  const size = sizeText === undefined || sizeText === 'auto' ? undefined : parseSize(sizeText);
  const qualityText = fields.string('quality') ?? 'auto';
  const quality = qualityAliases[qualityText];
  if (quality === undefined)
    throw VllmError.badRequest(
      `Invalid quality '${qualityText}': expected low, medium, high, standard, hd or auto.`,
      'quality',
    );
  const outputFormat = fields.string('output_format') ?? 'png';
  if (outputFormat !== 'png' && outputFormat !== 'jpeg' && outputFormat !== 'webp') {
    throw VllmError.badRequest(
      `Invalid output_format '${outputFormat}': expected png, jpeg or webp.`,
      'output_format',
    );
  }
  const responseFormat = fields.string('response_format') ?? 'b64_json';
  if (responseFormat !== 'b64_json')
    throw VllmError.badRequest(
      'Only response_format b64_json is supported; this server hosts no image URLs.',
      'response_format',
    );
  const n = fields.integer('n') ?? 1;
  if (n < 1 || n > 10) throw VllmError.badRequest(`n must be between 1 and 10, got ${n}.`, 'n');
  return { model: fields.string('model'), prompt, size, quality, outputFormat, n };
}

// As the gateway reads sizes (core's parseImageSize): positive integers without leading zeros, W*H <= 2 MiP.
const sizePattern = /^([1-9][0-9]{0,6})x([1-9][0-9]{0,6})$/;

export function parseSize(text: string): { width: number; height: number } {
  const match = sizePattern.exec(text);
  if (match === null)
    throw VllmError.badRequest(
      `Invalid size '${text}': expected <width>x<height> in pixels.`,
      'size',
    );
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (width * height > maxImagePixels)
    throw VllmError.badRequest(
      `Invalid size '${text}': at most ${maxImagePixels} pixels (2 megapixels).`,
      'size',
    );
  return { width, height };
}
