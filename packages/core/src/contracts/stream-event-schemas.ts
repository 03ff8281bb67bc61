import { z } from 'zod';
import { outputItemSchema, responseTextFormSchema } from './response-schemas.js';

const integer = z.int().min(0);

/** The error a stream ends with when the model server fails after the 200. */
export const streamErrorSchema = z.object({
  message: z.string(),
  type: z.literal('api_error'),
  param: z.string().nullable(),
  code: z.enum(['upstream_error', 'upstream_timeout']),
});

const chatUsageSchema = z
  .object({
    prompt_tokens: integer,
    completion_tokens: integer,
    total_tokens: integer,
    cost: z
      .number()
      .optional()
      .describe("at the model's configured price, in its currency (x-infergate-cost's amount)"),
  })
  .loose();

/**
 * One `data:` event of a streamed chat completion: a chunk as the model server sent it, with the
 * gateway's id and model, or the terminating error. Loose: the server's extra fields pass through.
 */
export const chatCompletionChunkSchema = z.union([
  z
    .object({
      id: z.string().describe('chatcmpl-<hex>, the same on every chunk'),
      object: z.literal('chat.completion.chunk'),
      created: integer,
      model: z.string(),
      choices: z.array(
        z
          .object({
            index: integer,
            delta: z
              .object({
                role: z.literal('assistant').nullable().optional(),
                content: z.string().nullable().optional(),
                reasoning: z.string().nullable().optional(),
                tool_calls: z
                  .array(
                    z
                      .object({
                        index: integer,
                        id: z.string().optional(),
                        type: z.literal('function').optional(),
                        function: z
                          .object({ name: z.string().optional(), arguments: z.string().optional() })
                          .optional(),
                      })
                      .loose(),
                  )
                  .nullable()
                  .optional()
                  .describe('null in the chunks of servers that always name the field (SGLang)'),
              })
              .loose(),
            finish_reason: z.string().nullable().optional(),
          })
          .loose(),
      ),
      usage: chatUsageSchema
        .nullable()
        .optional()
        .describe('on the final chunk (empty choices) with stream_options.include_usage'),
    })
    .loose()
    .meta({ title: 'ChatCompletionChunk' }),
  z.object({ error: streamErrorSchema }).meta({ title: 'ChatStreamError' }),
]);

const sequenced = { sequence_number: integer.describe('from 0, without gaps') };
const partPosition = { item_id: z.string(), output_index: integer, content_index: integer };
const logprobsField = z.array(z.unknown());

/** The events of a streamed response, in the order openai-node's accumulator checks. */
export const responseStreamEventSchema = z
  .discriminatedUnion('type', [
    z.object({
      type: z.enum([
        'response.created',
        'response.in_progress',
        'response.completed',
        'response.incomplete',
        'response.failed',
      ]),
      ...sequenced,
      response: responseTextFormSchema,
    }),
    z.object({
      type: z.enum(['response.output_item.added', 'response.output_item.done']),
      ...sequenced,
      output_index: integer,
      item: outputItemSchema,
    }),
    z.object({
      type: z.enum(['response.content_part.added', 'response.content_part.done']),
      ...sequenced,
      ...partPosition,
      part: z.union([
        z.object({
          type: z.literal('output_text'),
          text: z.string(),
          annotations: z.array(z.never()),
          logprobs: logprobsField.nullable(),
        }),
        z.object({ type: z.literal('reasoning_text'), text: z.string() }),
      ]),
    }),
    z.object({
      type: z.literal('response.output_text.delta'),
      ...sequenced,
      ...partPosition,
      delta: z.string(),
      logprobs: logprobsField,
    }),
    z.object({
      type: z.literal('response.output_text.done'),
      ...sequenced,
      ...partPosition,
      text: z.string(),
      logprobs: logprobsField,
    }),
    z.object({
      type: z.literal('response.reasoning_text.delta'),
      ...sequenced,
      ...partPosition,
      delta: z.string(),
    }),
    z.object({
      type: z.literal('response.reasoning_text.done'),
      ...sequenced,
      ...partPosition,
      text: z.string(),
    }),
    z.object({
      type: z.literal('response.function_call_arguments.delta'),
      ...sequenced,
      item_id: z.string(),
      output_index: integer,
      delta: z.string(),
    }),
    z.object({
      type: z.literal('response.function_call_arguments.done'),
      ...sequenced,
      item_id: z.string(),
      output_index: integer,
      name: z.string(),
      arguments: z.string(),
    }),
  ])
  .meta({ title: 'ResponseStreamEvent' });
