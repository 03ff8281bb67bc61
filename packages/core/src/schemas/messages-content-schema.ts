import { z } from 'zod';
import { maxContentParts, maxMessages, maxTools, tooManyItems } from './item-bounds.js';
import { stringOrArraySchema } from './string-or-array-schema.js';

/*
 * The content blocks of POST /v1/messages as the Messages API defines them, read tolerantly: clients
 * replay the blocks they were given (with `citations`, `cache_control` and signatures), so fields the
 * gateway does not use are dropped (z.object strips them). A block type that cannot become a chat
 * message (documents, server tool results...) is refused with `param` naming its `type`.
 */

const textBlockSchema = z.object({ type: z.literal('text'), text: z.string() });

/** A base64 image; `url` and `file` sources are refused, as image URLs are on every other route. */
const imageBlockSchema = z.object({
  type: z.literal('image'),
  source: z.discriminatedUnion('type', [
    z.object({
      type: z.literal('base64'),
      media_type: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']),
      data: z.string().min(1),
    }),
    z.object({
      type: z.literal('url'),
      url: z.never({
        error:
          'image URLs are not supported and the gateway never fetches URLs: send the image as a base64 source',
      }),
    }),
    z.object({
      type: z.literal('file'),
      file_id: z.never({
        error: 'this gateway stores no files: send the image as a base64 source',
      }),
    }),
  ]),
});

const toolUseBlockSchema = z.object({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
});

const toolResultBlockSchema = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: stringOrArraySchema(
    z
      .array(z.discriminatedUnion('type', [textBlockSchema, imageBlockSchema]))
      .max(maxContentParts, tooManyItems),
  ).optional(),
  is_error: z.boolean().optional(),
});

// Replayed from earlier turns so that a history is valid; never sent upstream (a chat template drops
// earlier thinking, and a signature means nothing to another model).
const thinkingBlockSchema = z.object({ type: z.literal('thinking'), thinking: z.string() });
const redactedThinkingBlockSchema = z.object({ type: z.literal('redacted_thinking') });

const userBlockSchema = z.discriminatedUnion('type', [
  textBlockSchema,
  imageBlockSchema,
  toolResultBlockSchema,
]);

const assistantBlockSchema = z.discriminatedUnion('type', [
  textBlockSchema,
  toolUseBlockSchema,
  thinkingBlockSchema,
  redactedThinkingBlockSchema,
]);

const knownBlockTypes = new Set([
  'text',
  'image',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
]);

/** A block whose type the gateway knows is validated by `schema`; any other type is refused by name. */
function blocksOf<Item extends z.ZodType>(schema: Item) {
  const block = z.preprocess((value: unknown, context) => {
    if (typeof value !== 'object' || value === null || !('type' in value)) return value;
    const { type } = value;
    if (typeof type === 'string' && !knownBlockTypes.has(type)) {
      context.addIssue({
        code: 'custom',
        path: ['type'],
        input: type,
        message: `content blocks of type '${type}' cannot be sent to a self-hosted model through this gateway: send text, image, tool_use or tool_result blocks`,
      });
    }
    return value;
  }, schema);
  return stringOrArraySchema(z.array(block).max(maxContentParts, tooManyItems));
}

export const messagesMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: blocksOf(userBlockSchema) }),
  z.object({ role: z.literal('assistant'), content: blocksOf(assistantBlockSchema) }),
]);

export const messagesListSchema = z
  .array(messagesMessageSchema)
  .min(1)
  .max(maxMessages, tooManyItems);

/** `system`: a string or text blocks (their `cache_control` accepted and dropped). */
export const messagesSystemSchema = stringOrArraySchema(
  z.array(textBlockSchema).max(maxContentParts, tooManyItems),
);

const customToolSchema = z.object({
  type: z.literal('custom').nullish(),
  name: z.string().min(1),
  description: z.string().nullish(),
  input_schema: z.record(z.string(), z.unknown()),
});

/**
 * A custom tool (`input_schema`). Anthropic's own tools (web search, code execution, bash, text
 * editor, computer use...) have versioned types whose schema or execution is Anthropic's, which a
 * self-hosted model cannot be given: refused naming `tools[i].type`.
 */
export const messagesToolSchema = z
  .unknown()
  .transform((value, context): z.output<typeof customToolSchema> => {
    const type =
      typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
    if (type !== undefined && type !== null && type !== 'custom') {
      context.addIssue({
        code: 'custom',
        path: ['type'],
        input: type,
        message:
          typeof type === 'string'
            ? `tools of type '${type}' are Anthropic's own tools, which this gateway cannot run or describe to a self-hosted model: only custom tools (name, description, input_schema) are supported`
            : 'expected a tool type string',
      });
      return z.NEVER;
    }
    const result = customToolSchema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) context.addIssue({ ...issue });
    return z.NEVER;
  });

export const messagesToolsSchema = z.array(messagesToolSchema).max(maxTools, tooManyItems);

const parallel = { disable_parallel_tool_use: z.boolean().optional() };

export const messagesToolChoiceSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auto'), ...parallel }),
  z.object({ type: z.literal('any'), ...parallel }),
  z.object({ type: z.literal('tool'), name: z.string().min(1), ...parallel }),
  z.object({ type: z.literal('none') }),
]);

export type MessagesMessage = z.output<typeof messagesMessageSchema>;
export type MessagesUserBlock = z.output<typeof userBlockSchema>;
export type MessagesAssistantBlock = z.output<typeof assistantBlockSchema>;
export type MessagesImageBlock = z.output<typeof imageBlockSchema>;
export type MessagesTool = z.output<typeof customToolSchema>;
export type MessagesToolChoice = z.output<typeof messagesToolChoiceSchema>;

/** A base64 image block as the data URL a chat upstream takes. */
export function imageDataUrl(block: MessagesImageBlock): string {
  const { source } = block;
  return source.type === 'base64' ? `data:${source.media_type};base64,${source.data}` : '';
}
