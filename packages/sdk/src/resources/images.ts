// The paths are core's route table's (bundled at build time: route-paths.ts is zod-free).
import { endpointRoutes } from '@infergate/core';
import type { RequestOptions } from '../client-options.js';
import { requestJson } from '../transport/request-json.js';
import type { TransportConfig } from '../transport/transport-config.js';
import type { ImageEditParams, ImageGenerateParams, ImagesResponse } from '../types/image-types.js';

export interface Images {
  /** POST /v1/images/generations: one image, returned inline as base64. */
  generate(params: ImageGenerateParams, options?: RequestOptions): Promise<ImagesResponse>;
  /** POST /v1/images/edits as JSON (not multipart): images are base64 data URLs. */
  edit(params: ImageEditParams, options?: RequestOptions): Promise<ImagesResponse>;
}

export function images(config: TransportConfig): Images {
  return {
    generate: (params, options) =>
      requestJson(
        config,
        { method: 'POST', path: endpointRoutes['image-generations'].path, body: params },
        options,
      ),
    edit: (params, options) =>
      requestJson(
        config,
        { method: 'POST', path: endpointRoutes['image-edits'].path, body: params },
        options,
      ),
  };
}
