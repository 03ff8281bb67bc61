import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { ModelObject } from '../handlers/models-handler.js';
import type { PriceObject } from '../handlers/pricing-handler.js';
import { routeTable } from '../http/route-table.js';
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
import type { chatCompletionChunkSchema, responseStreamEventSchema } from './stream-event-schemas.js';

// The transforms build each body typed with a zod-free interface (the SDK's types, with no zod in its
// declarations); the schemas are what the document publishes and the contract suite checks. Both say
// the same: each is assignable to the other (readonly aside, which JSON does not carry).
type Mutable<Type> = Type extends readonly (infer Item)[]
  ? Mutable<Item>[]
  : Type extends object
    ? { -readonly [Key in keyof Type]: Mutable<Type[Key]> }
    : Type;
type Same<Left, Right> = [Mutable<Left>] extends [Mutable<Right>] ? ([Mutable<Right>] extends [Mutable<Left>] ? true : false) : false;
type Assert<Condition extends true> = Condition;

export type InterfacesEqualSchemas = [
  Assert<Same<ChatCompletion, z.output<typeof chatCompletionSchema>>>,
  Assert<Same<ResponsesObject, z.output<typeof responseTextFormSchema>>>,
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

describe('route contracts', () => {
  it('give every route that answers JSON a response schema, and every streaming endpoint an event schema', () => {
    for (const route of routeTable) {
      const { contract } = route;
      expect(['json', 'text', 'errors'], route.operationId).toContain(contract.answers);
      if (contract.answers !== 'json') continue;
      expect(typeof contract.response.safeParse, route.operationId).toBe('function');
      if (contract.request !== undefined) expect(contract.endpoint, route.operationId).toBeDefined();
    }
    const streaming = routeTable.filter((route) => route.contract.answers === 'json' && route.contract.events !== undefined).map((route) => route.operationId);
    expect(streaming).toEqual(['createResponse', 'createChatCompletion']);
  });

  it('serve every catalogue endpoint from exactly one route', () => {
    const endpoints = routeTable.flatMap((route) =>
      route.contract.answers === 'json' && route.contract.endpoint !== undefined ? [route.contract.endpoint] : [],
    );
    expect(endpoints.sort()).toEqual(['chat', 'compat-embed', 'compat-rerank', 'embeddings', 'image-edits', 'image-generations', 'responses', 'tokenize']);
  });
});
