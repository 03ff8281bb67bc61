import { z } from 'zod';

/*
 * The Messages API's answers (POST /v1/messages and its count_tokens): the Message object, its stream
 * events and the error body. The OpenAPI document is generated from them, and the contract suite
 * parses every answer with them: unknown fields fail.
 */

const integer = z.int().min(0);

const messageUsageSchema = z.object({
  input_tokens: integer.describe('Prompt tokens not read from the prefix cache'),
  output_tokens: integer,
  cache_creation_input_tokens: integer,
  cache_read_input_tokens: integer.describe('Prompt tokens read from the prefix cache'),
});

const contentBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({
    type: z.literal('thinking'),
    thinking: z.string(),
    signature: z.string().describe('always empty: a self-hosted model signs nothing'),
  }),
  z.object({
    type: z.literal('tool_use'),
    id: z.string(),
    name: z.string(),
    input: z.record(z.string(), z.unknown()),
  }),
]);

const stopReasonSchema = z.enum(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'refusal']);

export const messageObjectSchema = z
  .object({
    id: z.string().describe('msg_<hex>'),
    type: z.literal('message'),
    role: z.literal('assistant'),
    model: z
      .string()
      .describe('The catalogue id used (a virtual id resolves to its catalogue id).'),
    content: z.array(contentBlockSchema),
    stop_reason: stopReasonSchema.nullable(),
    stop_sequence: z.string().nullable(),
    usage: messageUsageSchema,
  })
  .meta({ title: 'Message' });

export const messageTokenCountSchema = z
  .object({ input_tokens: integer })
  .meta({ title: 'MessageTokenCount' });

const index = { index: integer };

/** The events of a streamed message, in the order the Anthropic SDK's accumulator checks. */
export const messageStreamEventSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('message_start'), message: messageObjectSchema }),
    z.object({ type: z.literal('ping') }),
    z.object({
      type: z.literal('content_block_start'),
      ...index,
      content_block: contentBlockSchema,
    }),
    z.object({
      type: z.literal('content_block_delta'),
      ...index,
      delta: z.discriminatedUnion('type', [
        z.object({ type: z.literal('text_delta'), text: z.string() }),
        z.object({ type: z.literal('thinking_delta'), thinking: z.string() }),
        z.object({ type: z.literal('input_json_delta'), partial_json: z.string() }),
      ]),
    }),
    z.object({ type: z.literal('content_block_stop'), ...index }),
    z.object({
      type: z.literal('message_delta'),
      delta: z.object({ stop_reason: stopReasonSchema, stop_sequence: z.string().nullable() }),
      usage: messageUsageSchema,
    }),
    z.object({ type: z.literal('message_stop') }),
    z.object({
      type: z.literal('error'),
      error: z.object({ type: z.string(), message: z.string() }),
    }),
  ])
  .meta({ title: 'MessageStreamEvent' });

export const anthropicErrorSchema = z
  .object({
    type: z.literal('error'),
    error: z.object({
      type: z.enum([
        'invalid_request_error',
        'authentication_error',
        'permission_error',
        'not_found_error',
        'request_too_large',
        'rate_limit_error',
        'api_error',
        'timeout_error',
        'overloaded_error',
      ]),
      message: z.string(),
    }),
  })
  .meta({
    title: 'AnthropicError',
    description: 'The error body of /v1/messages and its count_tokens.',
  });
