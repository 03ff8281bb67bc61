import { z } from 'zod';
import type { ReasoningEffort } from '../catalogue/catalogue-types.js';
import { reasoningEfforts } from '../catalogue/catalogue-values.js';
import { maxContentParts, maxMessages, maxTools, tooManyItems } from './item-bounds.js';
import { nullsAsAbsent } from './nulls-as-absent.js';
import { checkSamplingParameters, samplingParametersShape } from './sampling-parameters-schema.js';
import { stringOrArraySchema } from './string-or-array-schema.js';

/** The spec's reasoning_effort values. */
export const reasoningEffortSchema: z.ZodType<ReasoningEffort> = z.enum(reasoningEfforts);

/*
 * Messages are read tolerantly (z.object drops unknown keys): clients append the assistant message we
 * answered, with every field of the spec's message (`tool_calls: []`, `annotations`, `audio`,
 * `refusal`...), and frameworks put their own bookkeeping in messages and parts. Those fields are
 * dropped before the upstream call, never refused; the top level stays strict (an unknown parameter
 * there is one the upstream would silently ignore).
 */
export const chatTextPartSchema = z.object({ type: z.literal('text'), text: z.string() });

export const chatImagePartSchema = z.object({
  type: z.literal('image_url'),
  image_url: z.object({
    /** A base64 data URL; checked by `checkMessageImages` (the gateway never fetches a URL). */
    url: z.string(),
    detail: z.enum(['auto', 'low', 'high']).nullish(),
  }),
});

// A refusal replayed from an earlier answer is the model's own text.
const chatRefusalPartSchema = z
  .object({ type: z.literal('refusal'), refusal: z.string() })
  .transform(({ refusal }) => ({ type: 'text' as const, text: refusal }));

const textContent = stringOrArraySchema(
  z.array(chatTextPartSchema).max(maxContentParts, tooManyItems),
);
const userContent = stringOrArraySchema(
  z
    .array(z.discriminatedUnion('type', [chatTextPartSchema, chatImagePartSchema]))
    .max(maxContentParts, tooManyItems),
);
const assistantContent = stringOrArraySchema(
  z.array(z.union([chatTextPartSchema, chatRefusalPartSchema])).max(maxContentParts, tooManyItems),
);
const name = z.string().min(1).optional();

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

export const chatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: textContent, name }),
  z.object({ role: z.literal('developer'), content: textContent, name }),
  z.object({ role: z.literal('user'), content: userContent, name }),
  // The empty tool_calls list our own answers carry is not passed on (chat-upstream-request.ts).
  z.object({
    role: z.literal('assistant'),
    content: assistantContent.nullish(),
    name,
    tool_calls: z.array(toolCallSchema).max(maxTools, tooManyItems).nullish(),
  }),
  z.object({ role: z.literal('tool'), content: textContent, tool_call_id: z.string() }),
]);

export const chatToolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1),
    description: z.string().nullish(),
    parameters: z.record(z.string(), z.unknown()).nullish(),
    strict: z.boolean().nullish(),
  }),
});

export const chatResponseFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: z.string().min(1),
      description: z.string().nullish(),
      schema: z.record(z.string(), z.unknown()).nullish(),
      strict: z.boolean().nullish(),
    }),
  }),
]);

// Deliberately absent, so the strict object refuses them by name (fault matrix row 25, mass
// assignment): chat_template, chat_template_kwargs, mm_processor_kwargs, kv_transfer_params,
// vllm_xargs. The gateway sets chat_template_kwargs itself from the model's fixed settings.
const chatCompletionsObjectSchema = z
  .strictObject({
    model: z.string().min(1),
    messages: z.array(chatMessageSchema).min(1).max(maxMessages, tooManyItems),
    stream: z.boolean().optional(),
    stream_options: z
      .object({
        include_usage: z.boolean().nullish(),
        continuous_usage_stats: z.boolean().nullish(),
      })
      .optional(),
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
    logit_bias: z
      .record(z.string().regex(/^\d+$/, 'keys must be token ids'), z.number().min(-100).max(100))
      .optional(),
    logprobs: z.boolean().optional(),
    top_logprobs: z.int().min(0).max(20).optional(),
    user: z.string().optional(),
    response_format: chatResponseFormatSchema.optional(),
    // An empty list (frameworks send one for an agent without tools) means no tools; vLLM's newest
    // versions refuse `tools: []`, so it is not passed on (chat-upstream-request.ts).
    tools: z.array(chatToolSchema).max(maxTools, tooManyItems).optional(),
    tool_choice: z
      .union([
        z.enum(['none', 'auto', 'required']),
        z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }) }),
      ])
      .optional(),
    parallel_tool_calls: z.boolean().optional(),
    /** Accepted only by models with a reasoning policy (checked by `reasoningEffortRule`). */
    reasoning_effort: reasoningEffortSchema.optional(),
    // Fields of the completion API that change nothing a chat upstream does (storage, routing hints,
    // an output-speed optimisation): accepted so that clients that send them work, never sent upstream.
    store: z.boolean().optional(),
    metadata: z.record(z.string(), z.string()).optional(),
    service_tier: z.enum(['auto', 'default', 'flex', 'scale', 'priority']).optional(),
    safety_identifier: z.string().optional(),
    prompt_cache_key: z.string().optional(),
    verbosity: z.enum(['low', 'medium', 'high']).optional(),
    prediction: z.object({ type: z.literal('content') }).optional(),
    modalities: z.array(z.literal('text', { error: 'only text output is offered' })).optional(),
    ...samplingParametersShape,
  })
  .superRefine((value, context) => {
    // vLLM answers 400 for stream_options without a stream; so does the gateway, before the upstream call.
    if (value.stream_options !== undefined && value.stream !== true) {
      context.addIssue({
        code: 'custom',
        path: ['stream_options'],
        input: value.stream_options,
        message: 'stream_options is only allowed with stream: true',
      });
    }
    if (value.top_logprobs !== undefined && value.logprobs !== true) {
      context.addIssue({
        code: 'custom',
        path: ['top_logprobs'],
        input: value.top_logprobs,
        message: 'top_logprobs needs logprobs: true',
      });
    }
    if (value.max_tokens !== undefined && value.max_completion_tokens !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['max_completion_tokens'],
        input: value.max_completion_tokens,
        message: 'send max_tokens or max_completion_tokens, not both',
      });
    }
    const maxTokens =
      value.max_tokens !== undefined
        ? { name: 'max_tokens', value: value.max_tokens }
        : { name: 'max_completion_tokens', value: value.max_completion_tokens };
    checkSamplingParameters(value, maxTokens, context);
    const choice = value.tool_choice;
    if (
      typeof choice === 'object' &&
      !(value.tools ?? []).some((tool) => tool.function.name === choice.function.name)
    ) {
      context.addIssue({
        code: 'custom',
        path: ['tool_choice', 'function', 'name'],
        input: choice.function.name,
        message: `no function tool named '${choice.function.name}' is in tools`,
      });
    }
  });

/** Body of POST /v1/chat/completions. */
export const chatCompletionsRequestSchema = nullsAsAbsent(chatCompletionsObjectSchema);

export type ChatCompletionsRequest = z.output<typeof chatCompletionsRequestSchema>;
export type ChatMessage = z.output<typeof chatMessageSchema>;
