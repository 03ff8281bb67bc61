import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { ModelObject } from '../handlers/models-handler.js';
import type { PriceObject } from '../handlers/pricing-handler.js';
import { endpointRoutes } from '../catalogue/route-paths.js';
import { routeTable } from '../gateway/route-table.js';
import type { MessageObject } from '../transforms/messages-object.js';
import type { messageObjectSchema } from './messages-schemas.js';
import type { ChatCompletion } from '../transforms/chat-completion-response.js';
import type { CompatEmbedResponse } from '../transforms/compat-embed-response.js';
import type { EmbeddingResponse } from '../transforms/embedding-response.js';
import type { ImageResult } from '../protocols/images/image-result-from-upstream.js';
import type { RerankResponse } from '../transforms/rerank-response.js';
import type { ImageFormResponse } from '../transforms/responses-from-chat-completion.js';
import type { ResponsesObject } from '../transforms/responses-object.js';
import type { TokenizeResponse } from '../transforms/tokenize-response.js';
import type {
  chatCompletionSchema,
  compatEmbedResponseSchema,
  embeddingListSchema,
  imageResultSchema,
  modelObjectSchema,
  priceListSchema,
  rerankResponseSchema,
  responseImageFormSchema,
  responseTextFormSchema,
  tokenizeResultSchema,
} from './response-schemas.js';
import type { ChatCompletionStreamEvent, ResponsesStreamEvent } from './stream-event-types.js';
import type { chatCompletionsRequestSchema } from '../schemas/chat-completions-request-schema.js';
import type {
  compatContentBlockSchema,
  compatEmbedRequestSchema,
} from '../schemas/compat-embed-request-schema.js';
import type { compatRerankRequestSchema } from '../schemas/compat-rerank-request-schema.js';
import type { embeddingsRequestSchema } from '../schemas/embeddings-request-schema.js';
import type { imageEditRequestSchema } from '../schemas/image-edit-request-schema.js';
import type { imageGenerationRequestSchema } from '../schemas/image-generation-request-schema.js';
import type { imageReferenceSchema } from '../schemas/image-request-fields.js';
import type { responsesRequestSchema } from '../schemas/responses-request-schema.js';
import type { tokenizeRequestSchema } from '../schemas/tokenize-request-schema.js';
import type {
  ChatCompletionsParams,
  CompatEmbedParams,
  CompatImageBlock,
  CompatRerankParams,
  CompatTextBlock,
  EmbeddingsParams,
  ImageEditParams,
  ImageGenerationParams,
  ResponsesParams,
  TokenizeParams,
} from './request-types.js';
import type {
  chatCompletionChunkSchema,
  responseStreamEventSchema,
} from './stream-event-schemas.js';

// The transforms build each body typed with a zod-free interface (the SDK's types, with no zod in its
// declarations); the schemas are what the document publishes and the contract suite checks. Both say
// the same: each is assignable to the other (readonly aside, which JSON does not carry).
type Mutable<Type> = Type extends readonly (infer Item)[]
  ? Mutable<Item>[]
  : Type extends object
    ? { -readonly [Key in keyof Type]: Mutable<Type[Key]> }
    : Type;
// Assignability alone lets either side add optional keys; with every key made required (at any depth)
// each side must still be assignable to the other, so an extra optional key on either side fails.
type Filled<Type> = Type extends readonly (infer Item)[]
  ? Filled<Item>[]
  : Type extends object
    ? { -readonly [Key in keyof Type]-?: Filled<Type[Key]> }
    : Type;
type Mutual<Left, Right> = [Left] extends [Right] ? ([Right] extends [Left] ? true : false) : false;
type Same<Left, Right> =
  Mutual<Mutable<Left>, Mutable<Right>> extends true ? Mutual<Filled<Left>, Filled<Right>> : false;
type Assert<Condition extends true> = Condition;

export type InterfacesEqualSchemas = [
  Assert<Same<ChatCompletion, z.output<typeof chatCompletionSchema>>>,
  Assert<Same<ResponsesObject, z.output<typeof responseTextFormSchema>>>,
  Assert<Same<MessageObject, z.output<typeof messageObjectSchema>>>,
  Assert<Same<ImageFormResponse, z.output<typeof responseImageFormSchema>>>,
  Assert<Same<EmbeddingResponse, z.output<typeof embeddingListSchema>>>,
  Assert<Same<CompatEmbedResponse, z.output<typeof compatEmbedResponseSchema>>>,
  Assert<Same<RerankResponse, z.output<typeof rerankResponseSchema>>>,
  Assert<Same<TokenizeResponse, z.output<typeof tokenizeResultSchema>>>,
  Assert<Same<ImageResult, z.output<typeof imageResultSchema>>>,
  Assert<Same<ModelObject, z.output<typeof modelObjectSchema>>>,
  Assert<Same<PriceObject, z.output<typeof priceListSchema>['data'][number]>>,
  Assert<Same<ChatCompletionStreamEvent, z.output<typeof chatCompletionChunkSchema>>>,
  Assert<Same<ResponsesStreamEvent, z.output<typeof responseStreamEventSchema>>>,
];

/*
 * Request bodies are held in the direction that protects clients: every body an interface allows, the
 * schema accepts. Where the schema's zod input is `unknown` (nullsAsAbsent, hand-checked fields),
 * `Wire` is that input with each hand-checked field in its checked form; a body must be assignable to
 * it and name no key the strict top level refuses. Strict nested objects are held equal on their own;
 * bounds are the schema's alone.
 */
type Discriminants<Type> = Pick<Type, ('role' | 'type') & keyof Type>;
type Matching<Output, Input> = Output extends unknown
  ? [Discriminants<Input>] extends [Discriminants<Output>]
    ? Output
    : never
  : never;
type FieldOf<Output, Key> = Output extends unknown
  ? Key extends keyof Output
    ? Output[Key]
    : never
  : never;
type Wire<Input, Output> = unknown extends Input | null | undefined
  ? Output
  : Input extends readonly (infer Item)[]
    ? Wire<Item, Output extends readonly (infer OutputItem)[] ? OutputItem : never>[]
    : Input extends object
      ? { [Key in keyof Input]: Wire<Input[Key], FieldOf<Matching<Output, Input>, Key>> }
      : Input & (Output | undefined);
type AcceptedBy<Params, Input, Output> = [Params] extends [Wire<Input, Output>]
  ? [Exclude<keyof Params, keyof Input>] extends [never]
    ? true
    : false
  : false;
// nullsAsAbsent's preprocess only removes top-level nulls: the body is the object schema inside it.
type BodyAccepts<Params, Schema extends z.ZodType> =
  Schema extends z.ZodPipe<z.core.$ZodType, infer Body>
    ? AcceptedBy<Params, z.input<Body>, z.output<Body>>
    : AcceptedBy<Params, z.input<Schema>, z.output<Schema>>;

export type RequestInterfacesAcceptedBySchemas = [
  Assert<BodyAccepts<ChatCompletionsParams, typeof chatCompletionsRequestSchema>>,
  Assert<BodyAccepts<ResponsesParams, typeof responsesRequestSchema>>,
  Assert<BodyAccepts<EmbeddingsParams, typeof embeddingsRequestSchema>>,
  Assert<BodyAccepts<CompatEmbedParams, typeof compatEmbedRequestSchema>>,
  Assert<BodyAccepts<ImageGenerationParams, typeof imageGenerationRequestSchema>>,
  Assert<BodyAccepts<ImageEditParams, typeof imageEditRequestSchema>>,
  Assert<Same<CompatRerankParams, z.input<typeof compatRerankRequestSchema>>>,
  Assert<Same<TokenizeParams, z.input<typeof tokenizeRequestSchema>>>,
  Assert<Same<CompatTextBlock | CompatImageBlock, z.input<typeof compatContentBlockSchema>>>,
  Assert<Same<ImageEditParams['images'][number], z.input<typeof imageReferenceSchema>>>,
];

describe('route contracts', () => {
  it('give every route that answers JSON a response schema, and every streaming endpoint an event schema', () => {
    for (const route of routeTable) {
      const { contract } = route;
      expect(['json', 'text', 'errors'], route.operationId).toContain(contract.answers);
      if (contract.answers !== 'json') continue;
      expect(typeof contract.response.safeParse, route.operationId).toBe('function');
      if (contract.request !== undefined)
        expect(contract.endpoint, route.operationId).toBeDefined();
    }
    const streaming = routeTable
      .filter((route) => route.contract.answers === 'json' && route.contract.events !== undefined)
      .map((route) => route.operationId);
    expect(streaming).toEqual(['createResponse', 'createMessage', 'createChatCompletion']);
  });

  it('serve every catalogue endpoint from exactly one route at its path; the Messages API borrows chat and tokenize models', () => {
    const endpoints = routeTable.flatMap((route) =>
      route.contract.answers === 'json' &&
      route.contract.endpoint !== undefined &&
      endpointRoutes[route.contract.endpoint].path === route.path
        ? [route.contract.endpoint]
        : [],
    );
    const borrowed = routeTable.flatMap((route) =>
      route.contract.answers === 'json' &&
      route.contract.endpoint !== undefined &&
      endpointRoutes[route.contract.endpoint].path !== route.path
        ? [`${route.path} ${route.contract.endpoint}`]
        : [],
    );
    expect(borrowed).toEqual(['/v1/messages chat', '/v1/messages/count_tokens tokenize']);
    expect(endpoints.sort()).toEqual([
      'chat',
      'compat-embed',
      'compat-rerank',
      'embeddings',
      'image-edits',
      'image-generations',
      'responses',
      'tokenize',
    ]);
  });
});
