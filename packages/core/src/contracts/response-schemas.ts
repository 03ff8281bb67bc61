import { z } from 'zod';

/**
 * The response objects of the spec's "Resources and their fields", as zod schemas that exist only to be
 * turned into the OpenAPI document (handlers build their bodies in transforms/; the contract suite
 * checks those bodies against the spec). Fields the spec shows as null are typed null.
 */

const integer = z.int().min(0);
const nullField = z.null();

const chatUsageSchema = z.object({ prompt_tokens: integer, completion_tokens: integer, total_tokens: integer, prompt_tokens_details: z.null() });

export const chatCompletionSchema = z
  .object({
    id: z.string().describe('chatcmpl-<hex>'),
    object: z.literal('chat.completion'),
    created: integer.describe('Unix time in seconds'),
    model: z.string().describe('The catalogue id used (a virtual id resolves to its catalogue id).'),
    choices: z.array(
      z.object({
        index: integer,
        finish_reason: z.string().describe('stop, or length when max_tokens cut the answer'),
        logprobs: z.unknown().nullable(),
        stop_reason: z.union([z.int(), z.string(), z.null()]),
        message: z.object({
          role: z.literal('assistant'),
          content: z.string().nullable(),
          reasoning: z.string().nullable().describe('The thinking of models that expose it; null otherwise.'),
          tool_calls: z.array(z.unknown()),
          refusal: nullField,
          annotations: nullField,
          audio: nullField,
          function_call: nullField,
        }),
      }),
    ),
    usage: chatUsageSchema,
    system_fingerprint: z.string(),
    service_tier: nullField,
  })
  .meta({ title: 'ChatCompletion' });

const outputTextSchema = z.object({
  type: z.literal('output_text'),
  text: z.string(),
  annotations: z.array(z.unknown()),
  logprobs: z.array(z.unknown()).nullable().describe('null unless the request asked for log-probabilities (top_logprobs, or include message.output_text.logprobs)'),
});

const functionCallItemSchema = z
  .object({
    type: z.literal('function_call'),
    id: z.string().describe('fc_<digits>'),
    status: z.string(),
    call_id: z.string().describe('Answer the call with a function_call_output input item carrying this call_id.'),
    name: z.string(),
    arguments: z.string().describe('The JSON arguments as the model wrote them.'),
  })
  .meta({ title: 'FunctionCallItem' });

const functionToolSchema = z.object({
  type: z.literal('function'),
  name: z.string(),
  description: z.string().nullable(),
  parameters: z.record(z.string(), z.unknown()).nullable(),
  strict: z.boolean().nullable(),
});

export const responseTextFormSchema = z
  .object({
    id: z.string().describe('resp_<digits>'),
    object: z.literal('response'),
    created_at: integer,
    model: z.string(),
    status: z.string().describe('completed, or incomplete when the token limit cut the answer'),
    output: z.array(
      z.union([
        z.object({ type: z.literal('message'), id: z.string().describe('msg_<digits>'), role: z.literal('assistant'), status: z.string(), phase: nullField, content: z.array(outputTextSchema) }),
        z.object({ type: z.literal('reasoning'), id: z.string().describe('rs_<digits>'), summary: z.array(z.unknown()), content: z.array(z.object({ type: z.literal('reasoning_text'), text: z.string() })), encrypted_content: nullField, status: z.string() }),
        functionCallItemSchema,
      ]),
    ),
    output_text: z.string(),
    background: z.boolean(),
    store: z.literal(false).describe('Always false: the gateway stores nothing.'),
    parallel_tool_calls: z.boolean(),
    service_tier: z.string(),
    tool_choice: z.union([z.enum(['none', 'auto', 'required']), z.object({ type: z.literal('function'), name: z.string() })]),
    tools: z.array(functionToolSchema),
    truncation: z.string(),
    metadata: z.record(z.string(), z.string()).nullable(),
    usage: z.object({
      input_tokens: integer,
      input_tokens_details: z.object({ cached_tokens: integer, cached_tokens_per_turn: z.array(integer).optional(), input_tokens_per_turn: z.array(integer).optional() }).describe('The per-turn arrays are on the returned object, not in stream events.'),
      output_tokens: integer,
      output_tokens_details: z.object({ output_tokens_per_turn: z.array(integer).optional(), reasoning_tokens: integer, tool_output_tokens: integer.optional(), tool_output_tokens_per_turn: z.array(integer).optional() }),
      total_tokens: integer,
    }),
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
        content: z.object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()) }).describe('A single object, not an array (spec).'),
        finish_reason: z.string(),
      }),
    ),
    usage: z.object({ input_tokens: integer, input_tokens_details: z.object({ cached_tokens: integer }), output_tokens: integer, output_tokens_details: z.object({ reasoning_tokens: integer }), total_tokens: integer }),
  })
  .meta({ title: 'ResponseImageInputForm', description: 'The form for image input (spec), answered when the input holds an input_image part (unless the gateway is configured to answer the text form).' });

export const embeddingListSchema = z
  .object({
    id: z.string().describe('embd-<hex>'),
    object: z.literal('list'),
    created: integer,
    model: z.string(),
    data: z.array(z.object({ index: integer, object: z.literal('embedding'), embedding: z.union([z.array(z.number()), z.string().describe('little-endian float32 values, base64 (encoding_format: base64)')]) })),
    usage: z.object({ prompt_tokens: integer, total_tokens: integer, completion_tokens: integer }),
  })
  .meta({ title: 'EmbeddingList' });

const billedUnitsSchema = z.object({ input_tokens: integer, images: integer.optional().describe('image input only') });

export const compatEmbedResponseSchema = z
  .object({
    id: z.string().describe('the request id'),
    embeddings: z.object({ float: z.array(z.array(z.number())).optional(), base64: z.array(z.string()).optional() }),
    texts: z.array(z.string()),
    images: z.array(z.object({ width: integer, height: integer, format: z.string(), bit_depth: integer })).optional(),
    meta: z.object({ api_version: z.object({ version: z.string(), is_experimental: z.boolean() }), billed_units: billedUnitsSchema }),
    model: z.string(),
    usage: z.object({ billed_units: billedUnitsSchema }),
    response_type: z.literal('embeddings_by_type'),
  })
  .meta({ title: 'CompatEmbedResponse' });

export const rerankResponseSchema = z
  .object({
    id: z.string().describe('the request id'),
    results: z.array(z.object({ index: integer.describe('position in documents'), relevance_score: z.number() })).describe('most relevant first, cut to top_n'),
    meta: z.object({ api_version: z.object({ version: z.string(), is_experimental: z.boolean() }), billed_units: z.object({ search_units: integer }) }),
  })
  .meta({ title: 'RerankResponse' });

export const imageResultSchema = z
  .object({
    created: integer,
    data: z.array(z.object({ b64_json: z.string().describe('the image, base64') })),
    usage: z.object({ total_tokens: integer, input_tokens: integer, output_tokens: integer, input_tokens_details: z.object({ text_tokens: integer, image_tokens: integer }) }),
    output_format: z.string(),
    quality: z.string(),
    size: z.string().describe('<width>x<height>'),
  })
  .meta({ title: 'ImageResult' });

export const tokenizeResultSchema = z
  .object({ count: integer, max_model_len: integer.describe('context window of the model'), tokens: z.array(integer), token_strs: z.null() })
  .meta({ title: 'TokenizeResult' });

export const modelObjectSchema = z
  .object({
    id: z.string(),
    object: z.literal('model'),
    created: integer,
    owned_by: z.literal('infergate'),
    kind: z.enum(['text', 'embedding', 'rerank', 'image-generation', 'image-edit']),
    description: z.string(),
    context_window: integer.nullable(),
    input_modalities: z.array(z.string()),
    dimensions: z.object({ default: integer, allowed: z.array(integer) }).nullable(),
    serves: z.array(z.string()),
    maps_to: z.string().optional().describe('virtual models only: the catalogue id'),
  })
  .meta({ title: 'Model' });

export const modelListSchema = z.object({ object: z.literal('list'), data: z.array(modelObjectSchema) }).meta({ title: 'ModelList' });

export const priceListSchema = z
  .object({ object: z.literal('list'), data: z.array(z.object({ model: z.string(), input_per_million: z.number(), output_per_million: z.number(), currency: z.string() })) })
  .meta({ title: 'PriceList' });

export const healthSchema = z.object({ status: z.enum(['ok', 'ready', 'not_ready']) }).meta({ title: 'Health' });

export const nativeErrorSchema = z
  .object({ error: z.object({ message: z.string(), type: z.string(), param: z.string().nullable().describe('the field at fault, e.g. messages[2].content'), code: z.string() }) })
  .meta({ title: 'NativeError', description: 'The error body of /v1/*, /tokenize, /pricing and every other non-compat path.' });

export const compatErrorSchema = z
  .object({ id: z.string().describe('the request id'), message: z.string() })
  .meta({ title: 'CompatError', description: 'The error body of /compat/v2/*.' });
