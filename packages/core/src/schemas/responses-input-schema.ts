import { z } from 'zod';
import { maxContentParts, tooManyItems } from './item-bounds.js';
import { stringOrArraySchema } from './string-or-array-schema.js';

/*
 * The input items of POST /v1/responses as the completion API defines them, read tolerantly: an agent
 * that keeps no server-side state replays the output items it was given (with their ids, statuses,
 * annotations and logprobs), so fields the gateway does not use are dropped (z.object strips them)
 * rather than refused. Item and part types the gateway cannot turn into a chat request are refused
 * with `param` naming their `type`.
 */

export const inputTextPartSchema = z.object({ type: z.literal('input_text'), text: z.string() });

export const inputImagePartSchema = z.object({
  type: z.literal('input_image'),
  /** A base64 data URL (spec: "Images are sent only as base64 data URLs inside an input_image part"). */
  image_url: z.string(),
  detail: z.enum(['auto', 'low', 'high']).nullish(),
});

// An assistant turn replayed from an earlier answer: output_text parts (annotations and logprobs
// dropped) and refusals.
const outputTextPartSchema = z.object({ type: z.literal('output_text'), text: z.string() });
const refusalPartSchema = z.object({ type: z.literal('refusal'), refusal: z.string() });

// `type: "message"` may be left out: the easy input form is a bare `{role, content}`.
const messageType = z.literal('message').optional();
const textOnly = stringOrArraySchema(
  z
    .array(z.discriminatedUnion('type', [inputTextPartSchema, outputTextPartSchema]))
    .max(maxContentParts, tooManyItems),
);

const messageItemSchema = z.discriminatedUnion('role', [
  z.object({
    type: messageType,
    role: z.literal('user'),
    content: stringOrArraySchema(
      z
        .array(z.discriminatedUnion('type', [inputTextPartSchema, inputImagePartSchema]))
        .max(maxContentParts, tooManyItems),
    ),
  }),
  z.object({ type: messageType, role: z.literal('system'), content: textOnly }),
  z.object({ type: messageType, role: z.literal('developer'), content: textOnly }),
  z.object({
    type: messageType,
    role: z.literal('assistant'),
    content: stringOrArraySchema(
      z
        .array(
          z.discriminatedUnion('type', [
            outputTextPartSchema,
            refusalPartSchema,
            inputTextPartSchema,
          ]),
        )
        .max(maxContentParts, tooManyItems),
    ),
  }),
]);

const functionCallItemSchema = z.object({
  type: z.literal('function_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
});

const functionCallOutputItemSchema = z.object({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1),
  output: stringOrArraySchema(z.array(inputTextPartSchema).max(maxContentParts, tooManyItems)),
});

// Accepted so that a replayed history is valid; its summary is never sent upstream, and encrypted
// content is never produced (the gateway stores nothing to decrypt it with).
const reasoningItemSchema = z.object({ type: z.literal('reasoning') });

const itemSchema = z.discriminatedUnion('type', [
  messageItemSchema,
  functionCallItemSchema,
  functionCallOutputItemSchema,
  reasoningItemSchema,
]);

/**
 * One input item. An `item_reference` points at an item stored by an earlier call, which this gateway
 * never keeps: refused with what to send instead.
 */
export const responsesInputItemSchema = z.preprocess((value: unknown, context) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('type' in value))
    return value;
  if (value.type === 'item_reference') {
    context.addIssue({
      code: 'custom',
      path: ['type'],
      input: value.type,
      message:
        'item_reference needs stored items, and this gateway stores nothing: send the item itself (as the earlier response returned it) instead of a reference',
    });
  }
  return value;
}, itemSchema);

export type ResponsesInputItem = z.output<typeof itemSchema>;
export type ResponsesMessageItem = Extract<ResponsesInputItem, { role: string }>;
