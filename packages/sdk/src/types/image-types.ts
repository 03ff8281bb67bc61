import type {
  ImageEditParams as CoreImageEditParams,
  ImageGenerationParams,
  ImageOutputFormatParam,
  ImageQualityParam,
  ImageResult,
  ImageSizeParam,
} from '@infergate/core';
import type { ImageEditModelId, ImageGenerationModelId } from './model-id.js';

/** standard and auto are served as medium, hd as high. */
export type ImageQuality = ImageQualityParam;
export type ImageOutputFormat = ImageOutputFormatParam;
/** `<width>x<height>`, up to 2 megapixels. */
export type ImageSize = ImageSizeParam;

export interface ImageGenerateParams extends Omit<ImageGenerationParams, 'model'> {
  model: ImageGenerationModelId;
}

export interface ImageEditParams extends Omit<CoreImageEditParams, 'model'> {
  model: ImageEditModelId;
}

/** The spec's image result object (generation and editing). */
export type ImagesResponse = ImageResult;
