import { z } from 'zod';
import { modelKinds } from '../catalogue/catalogue-values.js';
import { anthropicErrorSchema } from './messages-schemas.js';

/**
 * The response objects of the spec's "Resources and their fields": each route's success body
 * (gateway/route-table.ts). The OpenAPI document is generated from them, and the contract suite parses
 * every answer with them: unknown fields fail, except in `.loose()` objects, which pass the upstream's
 * extras on. contract-types.test.ts holds the transforms' zod-free interfaces equal to them.
 */

const integer = z.int().min(0);
const nullField = z.null();

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

export const chatCompletionSchema = z
  .object({
    id: z.string().describe('chatcmpl-<hex>'),
    object: z.literal('chat.completion'),
    created: integer.describe('Unix time in seconds'),
    model: z
      .string()
      .describe('The catalogue id used (a virtual id resolves to its catalogue id).'),
    choices: z.array(
      z.object({
        index: integer,
        finish_reason: z
          .string()
          .nullable()
          .describe('stop, or length when max_tokens cut the answer, or tool_calls'),
        logprobs: z.unknown().describe('null unless the request asked for logprobs'),
        stop_reason: z.union([z.int(), z.string(), z.null()]),
        token_ids: nullField,
        routed_experts: nullField,
        message: z.object({
          role: z.literal('assistant'),
          content: z.string().nullable(),
          tool_calls: z.array(toolCallSchema),
          annotations: nullField,
          audio: nullField,
          function_call: nullField,
          reasoning: z
            .string()
            .nullable()
            .describe('The thinking of models that expose it; null otherwise.'),
          refusal: nullField,
        }),
      }),
    ),
    usage: z.object({
      completion_tokens: integer,
      prompt_tokens: integer,
      total_tokens: integer,
      prompt_tokens_details: z
        .unknown()
        .describe(
          "null in the spec; the model server's details (cached_tokens) when it sends them",
        ),
    }),
    system_fingerprint: z.string(),
    service_tier: nullField,
    prompt_logprobs: z.unknown().describe('null unless the request asked for prompt_logprobs'),
    prompt_text: nullField,
    prompt_token_ids: nullField,
    kv_transfer_params: nullField,
  })
  .meta({ title: 'ChatCompletion' });

const logprobSchema = z.object({ token: z.string(), logprob: z.number(), bytes: z.array(integer) });

const outputTextSchema = z.object({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(z.never()),
  logprobs: z
    .array(logprobSchema.extend({ top_logprobs: z.array(logprobSchema) }))
    .nullable()
    .describe(
      'null unless the request asked for log-probabilities (top_logprobs, or include message.output_text.logprobs)',
    ),
});

const itemStatusSchema = z.enum(['in_progress', 'completed', 'incomplete']);

export const messageItemSchema = z.object({
  id: z.string().describe('msg_<digits>'),
  type: z.literal('message'),
  role: z.literal('assistant'),
  status: itemStatusSchema,
  phase: nullField,
  content: z.array(outputTextSchema),
});

export const reasoningItemSchema = z.object({
  id: z.string().describe('rs_<digits>'),
  type: z.literal('reasoning'),
  summary: z.array(z.never()),
  content: z.array(z.object({ type: z.literal('reasoning_text'), text: z.string() })),
  encrypted_content: nullField,
  status: itemStatusSchema,
});

export const functionCallItemSchema = z
  .object({
    id: z.string().describe('fc_<digits>'),
    type: z.literal('function_call'),
    status: itemStatusSchema,
    arguments: z.string().describe('The JSON arguments as the model wrote them.'),
    call_id: z
      .string()
      .describe('Answer the call with a function_call_output input item carrying this call_id.'),
    name: z.string(),
  })
  .meta({ title: 'FunctionCallItem' });

export const outputItemSchema = z.discriminatedUnion('type', [
  messageItemSchema,
  reasoningItemSchema,
  functionCallItemSchema,
]);

const functionToolSchema = z.object({
  type: z.literal('function'),
  name: z.string(),
  description: z.string().nullable(),
  parameters: z.record(z.string(), z.unknown()).nullable(),
  strict: z.boolean().nullable(),
});

const textFormatSchema = z.union([
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    name: z.string(),
    schema: z.record(z.string(), z.unknown()),
    description: z.string().nullable().optional(),
    strict: z.boolean().nullable().optional(),
  }),
]);

export const responsesUsageSchema = z
  .object({
    input_tokens: integer,
    input_tokens_details: z.object({
      cached_tokens: integer,
      cached_tokens_per_turn: z.array(integer).optional(),
      input_tokens_per_turn: z.array(integer).optional(),
    }),
    output_tokens: integer,
    output_tokens_details: z.object({
      output_tokens_per_turn: z.array(integer).optional(),
      reasoning_tokens: integer,
      tool_output_tokens: integer.optional(),
      tool_output_tokens_per_turn: z.array(integer).optional(),
    }),
    total_tokens: integer,
    cost: z
      .number()
      .optional()
      .describe(
        "in a stream's final usage: at the model's configured price, in its currency (x-infergate-cost's amount)",
      ),
  })
  .describe('The per-turn arrays are on the returned object, not in stream events.');

export const responseTextFormSchema = z
  .object({
    id: z.string().describe('resp_<digits>'),
    object: z.literal('response'),
    created_at: integer,
    model: z.string(),
    status: z
      .enum(['in_progress', 'completed', 'incomplete', 'failed'])
      .describe(
        'completed, or incomplete when the token limit cut the answer; in_progress and failed in stream events',
      ),
    output: z.array(outputItemSchema),
    output_text: z.string(),
    background: z.literal(false),
    store: z.literal(false).describe('Always false: the gateway stores nothing.'),
    incomplete_details: z.object({ reason: z.literal('max_output_tokens') }).nullable(),
    input_messages: nullField,
    output_messages: nullField,
    previous_response_id: nullField,
    prompt: nullField,
    usage: responsesUsageSchema.nullable(),
    error: z
      .object({ code: z.string(), message: z.string() })
      .optional()
      .describe('only on a failed response (stream events)'),
    // What the request set, as applied (ResponsesEcho).
    instructions: z.string().nullable(),
    max_output_tokens: integer.nullable(),
    max_tool_calls: integer.nullable(),
    metadata: z.record(z.string(), z.string()).nullable(),
    parallel_tool_calls: z.boolean(),
    reasoning: z.object({ effort: z.string(), summary: z.string().nullable() }).nullable(),
    service_tier: z.string(),
    temperature: z.number().nullable(),
    text: z
      .object({
        format: textFormatSchema.nullable().optional(),
        verbosity: z.string().nullable().optional(),
      })
      .nullable(),
    tool_choice: z.union([
      z.enum(['none', 'auto', 'required']),
      z.object({ type: z.literal('function'), name: z.string() }),
    ]),
    tools: z.array(functionToolSchema),
    top_logprobs: integer.nullable(),
    top_p: z.number().nullable(),
    truncation: z.enum(['auto', 'disabled']),
    user: z.string().nullable(),
  })
  .meta({ title: 'Response', description: 'The text form (spec), answered for text-only input.' });

export const responseImageFormSchema = z
  .object({
    id: z.string().describe('resp-<hex>'),
    object: z.literal('responses'),
    created: integer,
    model: z.string(),
    output: z.array(
      z.object({
        type: z.literal('message'),
        id: z.string(),
        role: z.literal('assistant'),
        content: z
          .object({
            type: z.literal('output_text'),
            text: z.string(),
            annotations: z.array(z.never()),
          })
          .describe('A single object, not an array (spec).'),
        finish_reason: z.string(),
      }),
    ),
    usage: z.object({
      input_tokens: integer,
      input_tokens_details: z.object({ cached_tokens: integer }),
      output_tokens: integer,
      output_tokens_details: z.object({ reasoning_tokens: integer }),
      total_tokens: integer,
    }),
  })
  .meta({
    title: 'ResponseImageInputForm',
    description:
      'The form for image input (spec), answered when the input holds an input_image part (unless the gateway is configured to answer the text form).',
  });

/** What POST /v1/responses answers: one of the two forms. */
export const responseObjectSchema = z.union([responseTextFormSchema, responseImageFormSchema]);

export const embeddingListSchema = z
  .object({
    id: z.string().describe('embd-<hex>'),
    object: z.literal('list'),
    created: integer,
    model: z.string(),
    data: z.array(
      z.object({
        index: integer,
        object: z.literal('embedding'),
        embedding: z.union([
          z.array(z.number()),
          z.string().describe('little-endian float32 values, base64 (encoding_format: base64)'),
        ]),
      }),
    ),
    usage: z.object({ prompt_tokens: integer, total_tokens: integer, completion_tokens: integer }),
  })
  .meta({ title: 'EmbeddingList' });

const billedUnitsSchema = z.object({
  input_tokens: integer,
  images: integer.optional().describe('image input only'),
});

export const compatEmbedResponseSchema = z
  .object({
    id: z.string().describe('the request id'),
    embeddings: z.object({
      float: z.array(z.array(z.number())).optional(),
      base64: z.array(z.string()).optional(),
    }),
    texts: z.array(z.string()),
    images: z
      .array(
        z.object({
          width: integer,
          height: integer,
          format: z.enum(['png', 'jpeg', 'webp', 'gif']),
          bit_depth: integer,
        }),
      )
      .optional(),
    meta: z.object({
      api_version: z.object({ version: z.string(), is_experimental: z.boolean() }),
      billed_units: billedUnitsSchema,
    }),
    model: z.string(),
    usage: z.object({ billed_units: billedUnitsSchema }),
    response_type: z.literal('embeddings_by_type'),
  })
  .meta({ title: 'CompatEmbedResponse' });

export const rerankResponseSchema = z
  .object({
    id: z.string().describe('the request id'),
    results: z
      .array(
        z.object({ index: integer.describe('position in documents'), relevance_score: z.number() }),
      )
      .describe('most relevant first, cut to top_n'),
    meta: z.object({
      api_version: z.object({ version: z.string(), is_experimental: z.boolean() }),
      billed_units: z.object({ search_units: integer }),
    }),
  })
  .meta({ title: 'RerankResponse' });

export const imageResultSchema = z
  .object({
    created: integer,
    data: z.array(z.object({ b64_json: z.string().describe('the image, base64') })),
    usage: z.object({
      total_tokens: integer,
      input_tokens: integer,
      output_tokens: integer,
      input_tokens_details: z.object({ text_tokens: integer, image_tokens: integer }),
    }),
    output_format: z.string(),
    quality: z.string(),
    size: z.string().describe('<width>x<height>'),
  })
  .meta({ title: 'ImageResult' });

export const tokenizeResultSchema = z
  .object({
    count: integer,
    max_model_len: integer.describe('context window of the model'),
    tokens: z.array(integer),
    token_strs: z.null(),
  })
  .meta({ title: 'TokenizeResult' });

export const modelObjectSchema = z
  .object({
    id: z.string(),
    object: z.literal('model'),
    created: integer,
    owned_by: z.literal('infergate'),
    kind: z.enum(modelKinds),
    description: z.string(),
    context_window: integer.nullable(),
    input_modalities: z.array(z.string()),
    dimensions: z.object({ default: integer, allowed: z.array(integer) }).nullable(),
    serves: z.array(z.string()),
    maps_to: z
      .string()
      .optional()
      .describe('virtual models only: the catalogue id (the first of the list, with `fallback`)'),
    fallback: z
      .object({
        models: z.array(z.string()).describe('catalogue ids, in the order they are tried'),
        on: z.array(z.string()).describe('the failures that move a request to the next model'),
        weights: z
          .record(z.string(), z.number())
          .optional()
          .describe('weights over the first attempt, by model id'),
      })
      .optional()
      .describe('virtual models with a list only: how a request falls back'),
  })
  .meta({ title: 'Model' });

export const modelListSchema = z
  .object({ object: z.literal('list'), data: z.array(modelObjectSchema) })
  .meta({ title: 'ModelList' });

export const priceListSchema = z
  .object({
    object: z.literal('list'),
    data: z.array(
      z.object({
        model: z.string(),
        input_per_million: z.number(),
        output_per_million: z.number(),
        per_image: z.number().optional(),
        currency: z.string(),
      }),
    ),
  })
  .meta({ title: 'PriceList' });

/** GET /openapi.json: an OpenAPI 3.1 document (checked for its frame; its contents are this file's schemas). */
export const openApiDocumentSchema = z
  .object({
    openapi: z.literal('3.1.0'),
    info: z.object({ title: z.string(), version: z.string() }).loose(),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  })
  .loose();

export const healthSchema = z
  .object({
    status: z.enum(['ok', 'ready', 'not_ready']),
    reason: z
      .enum(['draining', 'saturated'])
      .optional()
      .describe('why not ready: draining for a shutdown, or at `limits.max_concurrent_requests`'),
  })
  .meta({ title: 'Health' });

/** GET /upstreamz: each configured upstream as the gateway's traffic shows it (names only, never URLs). */
export const upstreamHealthListSchema = z
  .object({
    object: z.literal('list'),
    data: z.array(
      z.object({
        upstream: z.string().describe('the configured name'),
        state: z
          .enum(['up', 'unreachable', 'ejected'])
          .describe(
            'unreachable: its latest request failed to connect, recently; ejected: out of rotation after consecutive failures',
          ),
        models: z.array(z.string()).describe('the catalogue ids it serves'),
        in_flight: integer,
        consecutive_failures: integer,
        ejected_for_ms: integer.describe(
          'while ejected: milliseconds until it gets requests again; else 0',
        ),
      }),
    ),
  })
  .meta({ title: 'UpstreamHealthList' });

export const nativeErrorSchema = z
  .object({
    error: z.object({
      message: z.string(),
      type: z.string(),
      param: z.string().nullable().describe('the field at fault, e.g. messages[2].content'),
      code: z.string(),
    }),
  })
  .meta({
    title: 'NativeError',
    description: 'The error body of /v1/*, /tokenize, /pricing and every other non-compat path.',
  });

export const compatErrorSchema = z
  .object({ id: z.string().describe('the request id'), message: z.string() })
  .meta({ title: 'CompatError', description: 'The error body of /compat/v2/*.' });

/** The error body of each envelope a route answers errors in (RouteDefinition.envelope). */
export const errorEnvelopeSchemas = {
  native: nativeErrorSchema,
  compat: compatErrorSchema,
  anthropic: anthropicErrorSchema,
} as const;
