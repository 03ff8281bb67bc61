import { z } from 'zod';
import type { ReasoningEffort } from '../catalogue/catalogue-types.js';
import { nullsAsAbsent } from './nulls-as-absent.js';
import { checkSamplingParameters, samplingParametersShape } from './sampling-parameters-schema.js';
import { stringOrArraySchema } from './string-or-array-schema.js';

/** The spec's reasoning_effort values: low, high or max. */
export const reasoningEffortSchema: z.ZodType<ReasoningEffort> = z.enum(['low', 'high', 'max']);

export const chatTextPartSchema = z.strictObject({ type: z.literal('text'), text: z.string() });

export const chatImagePartSchema = z.strictObject({
  type: z.literal('image_url'),
  image_url: z.strictObject({
    /** A base64 data URL; checked by `checkMessageImages` (the gateway never fetches a URL). */
    url: z.string(),
    detail: z.enum(['auto', 'low', 'high']).optional(),
  }),
});

const textContent = stringOrArraySchema(z.array(chatTextPartSchema));
const userContent = stringOrArraySchema(z.array(z.discriminatedUnion('type', [chatTextPartSchema, chatImagePartSchema])));
const name = z.string().min(1).optional();

const toolCallSchema = z.strictObject({
  id: z.string(),
  type: z.literal('function'),
  function: z.strictObject({ name: z.string(), arguments: z.string() }),
});

export const chatMessageSchema = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('system'), content: textContent, name }),
  z.strictObject({ role: z.literal('developer'), content: textContent, name }),
  z.strictObject({ role: z.literal('user'), content: userContent, name }),
  z.strictObject({
    role: z.literal('assistant'),
    content: textContent.nullable().optional(),
    name,
    reasoning: z.string().nullable().optional(),
    reasoning_content: z.string().nullable().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
    // A client that appends our own chat completion message to the next request sends these back
    // with the values we answered (the spec's message has them null): accept exactly those.
    refusal: z.null().optional(),
    annotations: z.null().optional(),
    audio: z.null().optional(),
    function_call: z.null().optional(),
  }),
  z.strictObject({ role: z.literal('tool'), content: textContent, tool_call_id: z.string() }),
]);

const toolSchema = z.strictObject({
  type: z.literal('function'),
  function: z.strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().optional(),
  }),
});

const responseFormatSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('text') }),
  z.strictObject({ type: z.literal('json_object') }),
  z.strictObject({
    type: z.literal('json_schema'),
    json_schema: z.strictObject({
      name: z.string().min(1),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().optional(),
    }),
  }),
]);

// Deliberately absent, so the strict object refuses them by name (fault matrix row 25, mass
// assignment): chat_template, chat_template_kwargs, mm_processor_kwargs, kv_transfer_params,
// vllm_xargs. The gateway sets chat_template_kwargs itself from the model's fixed settings.
const chatCompletionsObjectSchema = z
  .strictObject({
    model: z.string().min(1),
    messages: z.array(chatMessageSchema).min(1),
    stream: z.boolean().optional(),
    stream_options: z.strictObject({ include_usage: z.boolean().optional(), continuous_usage_stats: z.boolean().optional() }).optional(),
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().gt(0).max(1).optional(),
    max_tokens: z.int().min(1).optional(),
    max_completion_tokens: z.int().min(1).optional(),
    n: z.int().min(1).max(8).optional(),
    // The completion API caps stop sequences at 4; vLLM has no cap. 16 keeps abuse bounded.
    stop: stringOrArraySchema(z.array(z.string().min(1)).max(16), z.string().min(1)).optional(),
    seed: z.int().optional(),
    presence_penalty: z.number().min(-2).max(2).optional(),
    frequency_penalty: z.number().min(-2).max(2).optional(),
    logit_bias: z.record(z.string().regex(/^\d+$/, 'keys must be token ids'), z.number().min(-100).max(100)).optional(),
    logprobs: z.boolean().optional(),
    top_logprobs: z.int().min(0).max(20).optional(),
    user: z.string().optional(),
    response_format: responseFormatSchema.optional(),
    // vLLM's newest versions refuse `tools: []`; refuse it here with the field named.
    tools: z.array(toolSchema).min(1).optional(),
    tool_choice: z
      .union([z.enum(['none', 'auto', 'required']), z.strictObject({ type: z.literal('function'), function: z.strictObject({ name: z.string().min(1) }) })])
      .optional(),
    parallel_tool_calls: z.boolean().optional(),
    /** Accepted only by models with a reasoning policy (checked by `reasoningEffortRule`). */
    reasoning_effort: reasoningEffortSchema.optional(),
    ...samplingParametersShape,
  })
  .superRefine((value, context) => {
    // vLLM answers 400 for stream_options without a stream; so does the gateway, before the upstream call.
    if (value.stream_options !== undefined && value.stream !== true) {
      context.addIssue({ code: 'custom', path: ['stream_options'], input: value.stream_options, message: 'stream_options is only allowed with stream: true' });
    }
    if (value.top_logprobs !== undefined && value.logprobs !== true) {
      context.addIssue({ code: 'custom', path: ['top_logprobs'], input: value.top_logprobs, message: 'top_logprobs needs logprobs: true' });
    }
    if (value.max_tokens !== undefined && value.max_completion_tokens !== undefined) {
      context.addIssue({ code: 'custom', path: ['max_completion_tokens'], input: value.max_completion_tokens, message: 'send max_tokens or max_completion_tokens, not both' });
    }
    const maxTokens = value.max_tokens !== undefined ? { name: 'max_tokens', value: value.max_tokens } : { name: 'max_completion_tokens', value: value.max_completion_tokens };
    checkSamplingParameters(value, maxTokens, context);
  });

/** Body of POST /v1/chat/completions. */
export const chatCompletionsRequestSchema = nullsAsAbsent(chatCompletionsObjectSchema);

export type ChatCompletionsRequest = z.output<typeof chatCompletionsRequestSchema>;
export type ChatMessage = z.output<typeof chatMessageSchema>;
