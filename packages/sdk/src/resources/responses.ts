// The paths are core's route table's (bundled at build time: route-paths.ts is zod-free).
import { endpointRoutes } from '@infergate/core';
import type { RequestOptions } from '../client-options.js';
import { ResponseStream } from '../streaming/response-stream.js';
import { openStream } from '../transport/open-stream.js';
import { requestJson } from '../transport/request-json.js';
import type { TransportConfig } from '../transport/transport-config.js';
import type {
  ResponseCreateParams,
  ResponseCreateParamsNonStreaming,
  ResponseCreateParamsStreaming,
  ResponseObject,
} from '../types/response-types.js';

export interface Responses {
  /** POST /v1/responses with `stream: true`: resolves once the stream is open. */
  create(params: ResponseCreateParamsStreaming, options?: RequestOptions): Promise<ResponseStream>;
  /** POST /v1/responses: the text form, or the spec's image-input form when the input holds an image. */
  create(
    params: ResponseCreateParamsNonStreaming,
    options?: RequestOptions,
  ): Promise<ResponseObject>;
  create(
    params: ResponseCreateParams,
    options?: RequestOptions,
  ): Promise<ResponseObject | ResponseStream>;
}

export function responses(config: TransportConfig): Responses {
  const { path } = endpointRoutes.responses;
  function create(
    params: ResponseCreateParamsStreaming,
    options?: RequestOptions,
  ): Promise<ResponseStream>;
  function create(
    params: ResponseCreateParamsNonStreaming,
    options?: RequestOptions,
  ): Promise<ResponseObject>;
  function create(
    params: ResponseCreateParams,
    options?: RequestOptions,
  ): Promise<ResponseObject | ResponseStream>;
  function create(
    params: ResponseCreateParams,
    options: RequestOptions = {},
  ): Promise<ResponseObject | ResponseStream> {
    const request = { method: 'POST', path, body: params } as const;
    if (params.stream === true)
      return openStream(config, request, options, ResponseStream.fromSource);
    return requestJson<ResponseObject>(config, request, options);
  }
  return { create };
}
