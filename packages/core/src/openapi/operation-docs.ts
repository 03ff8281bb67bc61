/** The client call each code sample makes; absent when that client has no method for the endpoint. */
export interface ClientCalls {
  /** The official OpenAI client (`client` from `OpenAI({ baseURL: '<gateway>/v1' })`), same path in Python and Node. */
  openai?: string;
  /** The official Cohere v2 client (`ClientV2` / `CohereClientV2` at `<gateway>/compat`). */
  cohere?: string;
  /** `@infergate/sdk`'s `createClient(...)`. */
  sdk?: string;
  /** The call takes the path parameter as its one argument instead of a body. */
  pathArgument?: string;
}

/** An operation's prose, examples and client calls. */
export interface OperationDoc {
  tag: string;
  summary: string;
  description?: string;
  /** Named example bodies (POST) or path parameters (GET); each one is accepted by a running gateway. */
  examples?: Readonly<Record<string, { summary: string; value: Record<string, unknown> }>>;
  pathExample?: Readonly<Record<string, string>>;
  clients?: ClientCalls;
}

// A valid 1x1 PNG: examples must be real images, since the gateway reads every image's header.
export const examplePngDataUrl =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const textTag = 'Text generation';

/**
 * What the document says about each operation of the route table, by operation id: the prose, examples
 * and client calls. The shapes (request, response, stream events, endpoint) are the route's contract.
 */
export const operationDocs: Readonly<Record<string, OperationDoc>> = {
  createResponse: {
    tag: textTag,
    summary: 'Create a model response',
    description:
      'Text or image input (images only as base64 data URLs in input_image parts). Returns the text form, or the form for image input when the input holds an image. With `stream: true` the answer is an SSE stream of response events ending in `response.completed` (or `response.failed`).',
    examples: {
      text: {
        summary: 'Text input',
        value: { model: 'general-std', input: 'Write a haiku about rain.', max_tokens: 64 },
      },
      messages: {
        summary: 'Messages with an instruction',
        value: {
          model: 'general-pro',
          instructions: 'Answer in one sentence.',
          input: [{ role: 'user', content: [{ type: 'input_text', text: 'What is a gateway?' }] }],
          temperature: 0.2,
        },
      },
    },
    clients: { openai: 'responses.create', sdk: 'responses.create' },
  },
  createMessage: {
    tag: textTag,
    summary: 'Create a message (Messages API)',
    description:
      "The Messages API, for Claude Code and the Anthropic SDK: stateless, answered by the chat model named (map `claude-*` names onto catalogue models with `virtual_models`). The key goes in `x-api-key` or `Authorization: Bearer`; `anthropic-version`, `anthropic-beta` and `?beta=true` are accepted. Images only as base64 sources; custom tools only. Whether a model thinks is the model's rule: a `thinking` setting it overrides is named in `x-infergate-ignored-params`. Errors come in the Messages API's envelope, 529 when the gateway is at capacity. With `stream: true` the answer is the Messages event stream, ending in `message_stop` (or an `error` event).",
    examples: {
      text: {
        summary: 'A question',
        value: {
          model: 'general-std',
          max_tokens: 256,
          system: 'Answer in one sentence.',
          messages: [{ role: 'user', content: 'What is a gateway?' }],
        },
      },
      tools: {
        summary: 'A custom tool',
        value: {
          model: 'general-pro',
          max_tokens: 512,
          tools: [
            {
              name: 'get_weather',
              description: 'The weather in a city',
              input_schema: {
                type: 'object',
                properties: { city: { type: 'string' } },
                required: ['city'],
              },
            },
          ],
          messages: [{ role: 'user', content: 'Weather in Paris?' }],
        },
      },
    },
  },
  countMessageTokens: {
    tag: textTag,
    summary: 'Count the tokens of a message (Messages API)',
    description:
      "The prompt's tokens (system, messages and tools, through the model's chat template) as the model's own tokenizer counts them, the source POST /tokenize uses.",
    examples: {
      text: {
        summary: 'A prompt',
        value: { model: 'general-std', messages: [{ role: 'user', content: 'Hello' }] },
      },
    },
  },
  createChatCompletion: {
    tag: textTag,
    summary: 'Create a chat completion',
    description:
      '`reasoning_effort` (low, high, max) is taken by beta53-flash-chat and beta53-flash-agent only; the -low variants accept low alone. Sampling parameters sent to backend-enforced models are dropped and named in `x-infergate-ignored-params`. With `stream: true` the answer is an SSE stream of chat.completion.chunk objects ending in `data: [DONE]`.',
    examples: {
      basic: {
        summary: 'A question',
        value: {
          model: 'general-std',
          messages: [{ role: 'user', content: 'Name three prime numbers.' }],
          max_tokens: 64,
        },
      },
      reasoning: {
        summary: 'Reasoning effort',
        value: {
          model: 'beta53-flash-chat',
          reasoning_effort: 'high',
          messages: [
            { role: 'system', content: 'Be brief.' },
            { role: 'user', content: 'Why is the sky blue?' },
          ],
        },
      },
    },
    clients: { openai: 'chat.completions.create', sdk: 'chat.completions.create' },
  },
  createEmbedding: {
    tag: 'Embeddings',
    summary: 'Create embeddings',
    description:
      '`dimensions` is taken by alpha3-vl-embedding-8b only (128 to 4096); gamma-m3 answers 1024 dimensions.',
    examples: {
      texts: {
        summary: 'Two texts',
        value: { model: 'gamma-m3', input: ['first text', 'second text'] },
      },
    },
    clients: { openai: 'embeddings.create', sdk: 'embeddings.create' },
  },
  compatEmbed: {
    tag: 'Embeddings',
    summary: 'Embed text or images (compat v2)',
    description:
      'Only alpha3-vl-embedding-8b. For image input, input_type is image and the image is an image_url block holding a base64 data URL. output_dimension is one of 128, 256, 384, 512, 768, 1024, 1536, 2048, 2560, 3072, 3584, 4096.',
    examples: {
      text: {
        summary: 'Text',
        value: {
          model: 'alpha3-vl-embedding-8b',
          input_type: 'search_document',
          output_dimension: 256,
          embedding_types: ['float'],
          inputs: [{ content: [{ type: 'text', text: 'a red bicycle' }] }],
        },
      },
      image: {
        summary: 'Image',
        value: {
          model: 'alpha3-vl-embedding-8b',
          input_type: 'image',
          embedding_types: ['float'],
          inputs: [{ content: [{ type: 'image_url', image_url: { url: examplePngDataUrl } }] }],
        },
      },
    },
    clients: { cohere: 'embed', sdk: 'compat.embed' },
  },
  compatRerank: {
    tag: 'Reranking',
    summary: 'Rerank documents (compat v2)',
    examples: {
      basic: {
        summary: 'Top document',
        value: {
          model: 'gamma-reranker-v2-m3',
          query: 'capital of France',
          documents: ['Berlin is the capital of Germany.', 'Paris is the capital of France.'],
          top_n: 1,
        },
      },
    },
    clients: { cohere: 'rerank', sdk: 'compat.rerank' },
  },
  createImage: {
    tag: 'Images',
    summary: 'Generate an image',
    description:
      'One image per request (n 1; 0 is taken as 1), returned inline as b64_json. size is <width>x<height> with width x height at most 2,097,152 pixels. standard and auto mean medium, hd means high.',
    examples: {
      basic: {
        summary: 'A PNG',
        value: {
          model: 'alpha-image',
          prompt: 'a lighthouse at dusk',
          size: '512x512',
          quality: 'medium',
          output_format: 'png',
        },
      },
    },
    clients: { openai: 'images.generate', sdk: 'images.generate' },
  },
  createImageEdit: {
    tag: 'Images',
    summary: 'Edit an image',
    description:
      'A JSON body, or the multipart form the OpenAI clients send (`image` or `image[]` files, `mask`, the other fields as form fields): each file becomes the base64 data URL the JSON form carries, so both forms reach the model server alike. Images are base64 data URLs or files; URLs are never fetched.',
    examples: {
      basic: {
        summary: 'One image',
        value: {
          model: 'alpha-image-edit',
          prompt: 'make it night',
          images: [{ image_url: examplePngDataUrl }],
          size: '512x512',
          quality: 'high',
          output_format: 'webp',
        },
      },
    },
    clients: { sdk: 'images.edit' },
  },
  tokenize: {
    tag: 'Tokens',
    summary: 'Tokenize a prompt',
    description:
      "Token count, token ids and the context window of the model (max_model_len). 501 when the model's server does not offer tokenization.",
    examples: {
      basic: { summary: 'A prompt', value: { model: 'general-std', prompt: 'How long is this?' } },
    },
    clients: { sdk: 'tokenize' },
  },
  listModels: {
    tag: 'Models',
    summary: 'List models',
    description: 'The catalogue, then the virtual models, as this key may see them.',
    clients: { openai: 'models.list', sdk: 'models.list' },
  },
  retrieveModel: {
    tag: 'Models',
    summary: 'Retrieve a model',
    pathExample: { id: 'general-std' },
    clients: { openai: 'models.retrieve', pathArgument: 'id' },
  },
  getPricing: {
    tag: 'Models',
    summary: 'Prices',
    description:
      'Configured prices per million tokens; models without a configured price are left out.',
    clients: { sdk: 'pricing.get' },
  },
  healthz: { tag: 'Operations', summary: 'Liveness' },
  readyz: {
    tag: 'Operations',
    summary: 'Readiness',
    description:
      'Whether this replica should get new requests: 503 with status not_ready and a reason from the moment it starts draining for shutdown (SIGTERM, `draining`) and while `limits.max_concurrent_requests` requests are running (`saturated`). A failing model server never makes it 503: see GET /upstreamz.',
  },
  getUpstreamHealth: {
    tag: 'Operations',
    summary: 'Model servers health',
    description:
      'Each configured upstream by its name (never its URL): `up`, `unreachable` (its latest request failed to connect, recently) or `ejected` (out of rotation after consecutive failures), the models it serves, requests in flight and failures since its last success. From real traffic; no probe of its own. Operator keys only (`keys[].operator`); other keys get 403 `operator_key_required`.',
  },
};

/** The routes of this operator surface; their 200 bodies are not JSON (except the document). */
export const surfaceDocs: Readonly<
  Record<string, OperationDoc & { contentType: string; redirectTo?: string }>
> = {
  getOpenApiDocument: {
    tag: 'Operations',
    summary: 'This OpenAPI document',
    description: 'No key needed; off with `docs: { enabled: false }`.',
    contentType: 'application/json',
  },
  getDocs: {
    tag: 'Operations',
    summary: 'API reference page',
    description:
      'An interactive reference rendered from /openapi.json; no key needed; off with `docs: { enabled: false }`.',
    contentType: 'text/html',
  },
  getMetrics: {
    tag: 'Operations',
    summary: 'Prometheus metrics',
    description:
      'Prometheus text format 0.0.4. Opened by an operator key (`keys[].operator: true`) or the separate `metrics.key`; any other key gets 403 `operator_key_required`. With `metrics.port` it moves to that port and needs no key there; off with `metrics: { enabled: false }`. Labels: route, model, status, upstream (configured names) and key (configured names, `unnamed` otherwise).',
    contentType: 'text/plain',
  },
  getStatusPage: {
    tag: 'Operations',
    summary: 'Operator page',
    description:
      "An HTML page of this replica's upstreams, requests and streams in flight, traffic over the last ten minutes, each key's last minute against its limits and the last failures, refreshed every few seconds from GET /status.json. No key needed for the page itself; it asks for an operator key to read the data. In memory, per replica. Also on `metrics.port`, without a key.",
    contentType: 'text/html',
  },
  getStatus: {
    tag: 'Operations',
    summary: 'Operator page data',
    description:
      "The operator page's data as JSON: `in_flight`, `upstreams` (with each one's last failure and its cause), `traffic` (ten-second buckets over ten minutes: requests, 4xx, 5xx, time to first byte), `keys` (each configured key's requests and tokens in the last minute and its limits) and `failures` (the last 50 answers of 500 or more: time, route, status, model, upstream, cause; never a body or a key). Operator keys only (`keys[].operator`); other keys get 403 `operator_key_required`. Also on `metrics.port`, without a key.",
    contentType: 'application/json',
  },
};
