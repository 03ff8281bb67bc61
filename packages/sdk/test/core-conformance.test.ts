/// <reference types="node" />
/*
 * The SDK's response types are core's; its request types are written out in the SDK (the catalogue's
 * model ids, streaming overloads) and held to core's request schemas here: at compile time
 * (`pnpm typecheck`) in both directions, and at run time by core's schemas accepting the SDK's example
 * requests.
 */
import { describe, expect, it } from 'vitest';
import {
  chatCompletionsRequestSchema,
  type ChatCompletionsRequest,
  responsesRequestSchema,
  type ResponsesRequest,
  embeddingsRequestSchema,
  type EmbeddingsRequest,
  compatEmbedRequestSchema,
  type CompatEmbedRequest,
  compatRerankRequestSchema,
  type CompatRerankRequest,
  tokenizeRequestSchema,
  type TokenizeRequest,
  imageGenerationRequestSchema,
  type ImageGenerationRequest,
  imageEditRequestSchema,
  type ImageEditRequest,
} from '@infergate/core';
import type {
  ChatCompletionCreateParams,
  CompatEmbedParams,
  CompatRerankParams,
  EmbeddingCreateParams,
  ImageEditParams,
  ImageGenerateParams,
  ResponseCreateParams,
  TokenizeParams,
} from '../src/index.js';

type Assert<Condition extends true> = Condition;
type Extends<Narrow, Wide> = [Narrow] extends [Wide] ? true : false;
type IsNever<Type> = [Type] extends [never] ? true : false;
/** Every key of every member (`keyof` of a union gives only the shared ones). */
type KeysOf<Type> = Type extends unknown ? keyof Type : never;
/** Fields with a schema default are optional to send, required in the parsed output. */
type DefaultsOptional<Type, Keys extends keyof Type> = Omit<Type, Keys> & Partial<Pick<Type, Keys>>;
// The image fields the spec lists as "accepted and ignored": the SDK does not offer them.
type IgnoredImageFields =
  | 'stream'
  | 'background'
  | 'moderation'
  | 'output_compression'
  | 'partial_images'
  | 'user'
  | 'style'
  | 'input_fidelity'
  | 'mask';

// Requests: what the SDK lets you write, core accepts...
export type RequestsFitCore = [
  Assert<Extends<ChatCompletionCreateParams, ChatCompletionsRequest>>,
  Assert<Extends<ResponseCreateParams, ResponsesRequest>>,
  Assert<Extends<EmbeddingCreateParams, DefaultsOptional<EmbeddingsRequest, 'encoding_format'>>>,
  Assert<Extends<CompatEmbedParams, DefaultsOptional<CompatEmbedRequest, 'embedding_types'>>>,
  Assert<Extends<CompatRerankParams, CompatRerankRequest>>,
  Assert<Extends<TokenizeParams, TokenizeRequest>>,
  Assert<Extends<ImageGenerateParams, ImageGenerationRequest>>,
  Assert<Extends<ImageEditParams, ImageEditRequest>>,
];

// ...and every field core accepts, the SDK offers.
export type CoreFieldsInSdk = [
  Assert<IsNever<Exclude<keyof ChatCompletionsRequest, KeysOf<ChatCompletionCreateParams>>>>,
  Assert<IsNever<Exclude<keyof ResponsesRequest, KeysOf<ResponseCreateParams>>>>,
  Assert<IsNever<Exclude<keyof EmbeddingsRequest, KeysOf<EmbeddingCreateParams>>>>,
  Assert<IsNever<Exclude<keyof CompatEmbedRequest, KeysOf<CompatEmbedParams>>>>,
  Assert<IsNever<Exclude<keyof CompatRerankRequest, KeysOf<CompatRerankParams>>>>,
  Assert<IsNever<Exclude<keyof TokenizeRequest, KeysOf<TokenizeParams>>>>,
  Assert<
    IsNever<Exclude<keyof ImageGenerationRequest, KeysOf<ImageGenerateParams> | IgnoredImageFields>>
  >,
  Assert<IsNever<Exclude<keyof ImageEditRequest, KeysOf<ImageEditParams> | IgnoredImageFields>>>,
];

const png = 'data:image/png;base64,iVBORw0KGgo=';

describe('core’s request schemas accept the SDK’s requests', () => {
  const cases: Array<
    [string, { safeParse(value: unknown): { success: boolean; error?: unknown } }, unknown]
  > = [
    [
      'chat',
      chatCompletionsRequestSchema,
      {
        model: 'beta53-flash-chat',
        messages: [
          { role: 'system', content: 'Be brief.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'hi' },
              { type: 'image_url', image_url: { url: png } },
            ],
          },
        ],
        reasoning_effort: 'high',
        max_tokens: 64,
        top_k: 20,
        min_p: 0.1,
        stream: true,
        stream_options: { include_usage: true },
      } satisfies ChatCompletionCreateParams,
    ],
    [
      'responses',
      responsesRequestSchema,
      {
        model: 'general-pro',
        input: [
          {
            role: 'user',
            content: [
              { type: 'input_text', text: 'hi' },
              { type: 'input_image', image_url: png },
            ],
          },
        ],
        max_tokens: 32,
        repetition_penalty: 1.1,
      } satisfies ResponseCreateParams,
    ],
    [
      'embeddings',
      embeddingsRequestSchema,
      {
        model: 'alpha3-vl-embedding-8b',
        input: ['a', 'b'],
        dimensions: 256,
        encoding_format: 'base64',
      } satisfies EmbeddingCreateParams,
    ],
    [
      'compat embed',
      compatEmbedRequestSchema,
      {
        model: 'alpha3-vl-embedding-8b',
        input_type: 'image',
        output_dimension: 1024,
        embedding_types: ['float'],
        inputs: [{ content: [{ type: 'image_url', image_url: { url: png } }] }],
      } satisfies CompatEmbedParams,
    ],
    [
      'compat rerank',
      compatRerankRequestSchema,
      {
        model: 'gamma-reranker-v2-m3',
        query: 'q',
        documents: ['a', 'b'],
        top_n: 1,
      } satisfies CompatRerankParams,
    ],
    [
      'tokenize',
      tokenizeRequestSchema,
      { model: 'general-std', prompt: 'count me' } satisfies TokenizeParams,
    ],
    [
      'image generation',
      imageGenerationRequestSchema,
      {
        model: 'image-pro',
        prompt: 'a cat',
        size: '1024x1024',
        quality: 'hd',
        output_format: 'webp',
        n: 1,
        response_format: 'b64_json',
      } satisfies ImageGenerateParams,
    ],
    [
      'image edit',
      imageEditRequestSchema,
      {
        model: 'alpha-image-edit',
        prompt: 'night',
        images: [{ image_url: png }],
        size: '512x512',
        quality: 'auto',
        output_format: 'png',
      } satisfies ImageEditParams,
    ],
  ];
  for (const [name, schema, request] of cases) {
    it(name, () => {
      const result = schema.safeParse(request);
      expect(result.error).toBeUndefined();
      expect(result.success).toBe(true);
    });
  }
});
