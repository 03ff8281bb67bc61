// The paths are core's route table's (bundled at build time: route-paths.ts is zod-free).
import { endpointRoutes } from '@infergate/core';
import type { RequestOptions } from '../client-options.js';
import { ChatCompletionStream } from '../streaming/chat-completion-stream.js';
import { openStream } from '../transport/open-stream.js';
import { requestJson } from '../transport/request-json.js';
import type { TransportConfig } from '../transport/transport-config.js';
import type {
  ChatCompletion,
  ChatCompletionCreateParams,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from '../types/chat-completion-types.js';

export interface ChatCompletions {
  /** POST /v1/chat/completions with `stream: true`: resolves once the stream is open. */
  create(
    params: ChatCompletionCreateParamsStreaming,
    options?: RequestOptions,
  ): Promise<ChatCompletionStream>;
  /** POST /v1/chat/completions. */
  create(
    params: ChatCompletionCreateParamsNonStreaming,
    options?: RequestOptions,
  ): Promise<ChatCompletion>;
  create(
    params: ChatCompletionCreateParams,
    options?: RequestOptions,
  ): Promise<ChatCompletion | ChatCompletionStream>;
}

export function chatCompletions(config: TransportConfig): ChatCompletions {
  const { path } = endpointRoutes.chat;
  function create(
    params: ChatCompletionCreateParamsStreaming,
    options?: RequestOptions,
  ): Promise<ChatCompletionStream>;
  function create(
    params: ChatCompletionCreateParamsNonStreaming,
    options?: RequestOptions,
  ): Promise<ChatCompletion>;
  function create(
    params: ChatCompletionCreateParams,
    options?: RequestOptions,
  ): Promise<ChatCompletion | ChatCompletionStream>;
  function create(
    params: ChatCompletionCreateParams,
    options: RequestOptions = {},
  ): Promise<ChatCompletion | ChatCompletionStream> {
    const request = { method: 'POST', path, body: params } as const;
    if (params.stream === true)
      return openStream(config, request, options, ChatCompletionStream.fromSource);
    return requestJson<ChatCompletion>(config, request, options);
  }
  return { create };
}
