import { z } from 'zod';
import { maxMessages, maxTools, tooManyItems } from './item-bounds.js';
import { nullsAsAbsent } from './nulls-as-absent.js';
import { responsesInputItemSchema } from './responses-input-schema.js';
import {
  responsesTextSchema,
  responsesToolChoiceSchema,
  responsesToolSchema,
} from './responses-tools-schema.js';
import { checkSamplingParameters, samplingParametersShape } from './sampling-parameters-schema.js';
import { stringOrArraySchema } from './string-or-array-schema.js';

export { inputImagePartSchema, inputTextPartSchema } from './responses-input-schema.js';

/** The completion API's reasoning efforts; which a model takes is the reasoning_effort rule's call. */
export const responsesReasoningEffortSchema = z.enum([
  'none',
  'minimal',
  'low',
  'medium',
  'high',
  'xhigh',
  'max',
]);

// Spec rule 1: nothing is stored, so what needs an earlier response or a stored conversation cannot be served.
const needsStoredState =
  'this gateway stores nothing: send the whole history as input items (the earlier output items followed by the new input), with store: false';

const responsesObjectSchema = z
  .strictObject({
    model: z.string().min(1),
    input: stringOrArraySchema(
      z.array(responsesInputItemSchema).min(1).max(maxMessages, tooManyItems),
    ),
    stream: z.boolean().optional(),
    stream_options: z.object({ include_obfuscation: z.boolean().nullish() }).optional(),
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().gt(0).max(1).optional(),
    /** The spec's gateway extension; the same meaning as max_output_tokens. */
    max_tokens: z.int().min(1).optional(),
    max_output_tokens: z.int().min(1).optional(),
    instructions: z.string().optional(),
    reasoning: z
      .object({
        effort: responsesReasoningEffortSchema.nullish(),
        summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
      })
      .optional(),
    tools: z.array(responsesToolSchema).max(maxTools, tooManyItems).optional(),
    tool_choice: responsesToolChoiceSchema.optional(),
    parallel_tool_calls: z.boolean().optional(),
    /** At most this many function_call items in the answer. */
    max_tool_calls: z.int().min(1).optional(),
    text: responsesTextSchema.optional(),
    /** Accepted with any value; the response always says `store: false`, since nothing is stored. */
    store: z.boolean().optional(),
    metadata: z
      .record(z.string().max(64), z.string().max(512))
      .refine((value) => Object.keys(value).length <= 16, 'metadata holds at most 16 keys')
      .optional(),
    /** Accepted; what cannot be produced (encrypted reasoning, hosted tool results) is absent from the answer. */
    include: z.array(z.string()).optional(),
    top_logprobs: z.int().min(0).max(20).optional(),
    user: z.string().optional(),
    safety_identifier: z.string().optional(),
    prompt_cache_key: z.string().optional(),
    service_tier: z.enum(['auto', 'default', 'flex', 'scale', 'priority']).optional(),
    truncation: z.enum(['auto', 'disabled']).optional(),
    background: z
      .literal(false, {
        error: `background: true needs a stored response to poll, and ${needsStoredState}`,
      })
      .optional(),
    previous_response_id: z.never({ error: needsStoredState }).optional(),
    conversation: z.never({ error: needsStoredState }).optional(),
    prompt: z
      .never({ error: `stored prompt templates are not available: ${needsStoredState}` })
      .optional(),
    ...samplingParametersShape,
  })
  .superRefine((value, context) => {
    if (value.max_tokens !== undefined && value.max_output_tokens !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['max_output_tokens'],
        input: value.max_output_tokens,
        message: 'send max_tokens or max_output_tokens, not both',
      });
    }
    const maxTokens =
      value.max_tokens !== undefined
        ? { name: 'max_tokens', value: value.max_tokens }
        : { name: 'max_output_tokens', value: value.max_output_tokens };
    checkSamplingParameters(value, maxTokens, context);
    const choice = value.tool_choice;
    if (
      typeof choice === 'object' &&
      !(value.tools ?? []).some((tool) => tool.name === choice.name)
    ) {
      context.addIssue({
        code: 'custom',
        path: ['tool_choice', 'name'],
        input: choice.name,
        message: `no function tool named '${choice.name}' is in tools`,
      });
    }
  });

/** Body of POST /v1/responses. */
export const responsesRequestSchema = nullsAsAbsent(responsesObjectSchema);

export type ResponsesRequest = z.output<typeof responsesRequestSchema>;
