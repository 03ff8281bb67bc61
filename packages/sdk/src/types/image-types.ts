import type { ImageResult } from '@infergate/core';
import type { ImageEditModelId, ImageGenerationModelId } from './model-id.js';

/** standard and auto are served as medium, hd as high. */
export type ImageQuality = 'low' | 'medium' | 'standard' | 'high' | 'hd' | 'auto';
export type ImageOutputFormat = 'png' | 'jpeg' | 'webp';
/** `<width>x<height>`, up to 2 megapixels. */
export type ImageSize = `${number}x${number}`;

interface ImageParamsBase {
  prompt: string;
  output_format: ImageOutputFormat;
  quality: ImageQuality;
  size: ImageSize;
  /** Only 1 (0 is served as 1). */
  n?: 0 | 1;
  /** Only b64_json. */
  response_format?: 'b64_json';
}

export interface ImageGenerateParams extends ImageParamsBase {
  model: ImageGenerationModelId;
}

export interface ImageEditParams extends ImageParamsBase {
  model: ImageEditModelId;
  /** base64 data URLs only; the gateway never fetches a URL. */
  images: Array<{ image_url: string }>;
}

/** The spec's image result object (generation and editing). */
export type ImagesResponse = ImageResult;
