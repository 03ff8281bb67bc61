// The paths are core's route table's (bundled at build time: route-paths.ts is zod-free).
import { endpointRoutes, catalogueRoutes } from '@infergate/core';
import type { ClientOptions, RequestOptions } from './client-options.js';
import { chatCompletions, type ChatCompletions } from './resources/chat-completions.js';
import { compat, type Compat } from './resources/compat.js';
import { embeddings, type Embeddings } from './resources/embeddings.js';
import { images, type Images } from './resources/images.js';
import { responses, type Responses } from './resources/responses.js';
import { requestJson } from './transport/request-json.js';
import type { TransportConfig } from './transport/transport-config.js';
import type { ModelList } from './types/model-list-types.js';
import type { PriceList } from './types/pricing-types.js';
import type { TokenizeParams, TokenizeResponse } from './types/tokenize-types.js';

export interface InfergateClient {
  chat: { completions: ChatCompletions };
  responses: Responses;
  embeddings: Embeddings;
  compat: Compat;
  images: Images;
  /** POST /tokenize: token count, token ids and the model's context window. */
  tokenize(params: TokenizeParams, options?: RequestOptions): Promise<TokenizeResponse>;
  models: {
    /** GET /v1/models: the catalogue and virtual models this key may use. */
    list(options?: RequestOptions): Promise<ModelList>;
  };
  pricing: {
    /** GET /pricing: configured prices per million tokens. */
    get(options?: RequestOptions): Promise<PriceList>;
  };
}

const defaultTimeoutMs = 600_000;
const defaultMaxRetries = 2;

function nonNegativeInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0)
    throw new TypeError(`${name} must be a non-negative integer, got ${value}`);
  return value;
}

/** A client for one gateway and API key. */
export function createClient(options: ClientOptions): InfergateClient {
  if (!options.baseURL) throw new TypeError('baseURL is required, e.g. http://127.0.0.1:8080');
  if (!options.apiKey) throw new TypeError('apiKey is required');
  const globalFetch = globalThis.fetch as ClientOptions['fetch'];
  const fetchFunction =
    options.fetch ?? (globalFetch === undefined ? undefined : globalFetch.bind(globalThis));
  if (fetchFunction === undefined) throw new TypeError('No global fetch: pass the fetch option');
  const config: TransportConfig = {
    baseURL: options.baseURL.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    // Bound: browsers throw "Illegal invocation" when fetch is called detached from its global.
    fetch: fetchFunction,
    timeout: nonNegativeInteger('timeout', options.timeout, defaultTimeoutMs),
    maxRetries: nonNegativeInteger('maxRetries', options.maxRetries, defaultMaxRetries),
    headers: options.headers ?? {},
  };
  return {
    chat: { completions: chatCompletions(config) },
    responses: responses(config),
    embeddings: embeddings(config),
    compat: compat(config),
    images: images(config),
    tokenize: (params, requestOptions) =>
      requestJson(
        config,
        { method: 'POST', path: endpointRoutes.tokenize.path, body: params },
        requestOptions,
      ),
    models: {
      list: (requestOptions) =>
        requestJson(
          config,
          { method: 'GET', path: catalogueRoutes.listModels.path },
          requestOptions,
        ),
    },
    pricing: {
      get: (requestOptions) =>
        requestJson(
          config,
          { method: 'GET', path: catalogueRoutes.getPricing.path },
          requestOptions,
        ),
    },
  };
}
