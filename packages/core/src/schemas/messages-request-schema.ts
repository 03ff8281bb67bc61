import { z } from 'zod';
import {
  messagesListSchema,
  messagesSystemSchema,
  messagesToolChoiceSchema,
  messagesToolsSchema,
} from './messages-content-schema.js';
import { nullsAsAbsent } from './nulls-as-absent.js';

/*
 * Body of POST /v1/messages (the Messages API). Top-level keys are strict, as on every route, except
 * that every field the Messages API defines is known: those with no meaning for a self-hosted model
 * (`service_tier`, `context_management`, `metadata`) are accepted and never sent upstream, and those
 * that need Anthropic's servers (`container`, `mcp_servers`) are refused by name.
 */

const noServerState =
  'needs Anthropic-hosted execution, which this gateway does not offer: run tools on the client as custom tools';

/** `thinking`: accepted as the API defines it; whether a model thinks is the model's rule (docs/api.md). */
export const messagesThinkingSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('enabled'), budget_tokens: z.int().min(1) }),
  z.object({ type: z.literal('disabled') }),
  z.object({ type: z.literal('adaptive') }),
]);

/** Structured output: a JSON schema the answer's text follows (chat's response_format json_schema). */
const jsonSchemaFormat = z.object({
  type: z.literal('json_schema'),
  schema: z.record(z.string(), z.unknown()),
});

const promptShape = {
  model: z.string().min(1),
  messages: messagesListSchema,
  system: messagesSystemSchema.optional(),
  tools: messagesToolsSchema.optional(),
  tool_choice: messagesToolChoiceSchema.optional(),
  thinking: messagesThinkingSchema.optional(),
  /** `effort` is the beta53 models' reasoning effort; their rule refuses what a model does not take. */
  output_config: z
    .object({
      effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).nullish(),
      format: jsonSchemaFormat.nullish(),
    })
    .optional(),
  /** The beta spelling of output_config.format. */
  output_format: jsonSchemaFormat.optional(),
  // Anthropic's server-side context editing and hosted execution: accepted where harmless to leave out.
  context_management: z.record(z.string(), z.unknown()).optional(),
  mcp_servers: z.never({ error: `mcp_servers ${noServerState}` }).optional(),
  container: z.never({ error: `container ${noServerState}` }).optional(),
};

function checkToolChoice(
  value: { tools?: ReadonlyArray<{ name: string }>; tool_choice?: { type: string; name?: string } },
  context: z.RefinementCtx,
): void {
  const choice = value.tool_choice;
  if (choice?.type !== 'tool') return;
  if (!(value.tools ?? []).some((tool) => tool.name === choice.name))
    context.addIssue({
      code: 'custom',
      path: ['tool_choice', 'name'],
      input: choice.name,
      message: `no tool named '${choice.name}' is in tools`,
    });
}

const messagesObjectSchema = z
  .strictObject({
    ...promptShape,
    /** Required, as the Messages API requires it. */
    max_tokens: z.int().min(1),
    stop_sequences: z.array(z.string().min(1)).max(16, 'at most 16 stop sequences').optional(),
    stream: z.boolean().optional(),
    temperature: z.number().min(0).max(1).optional(),
    top_p: z.number().gt(0).max(1).optional(),
    top_k: z.int().min(1).optional(),
    metadata: z.object({ user_id: z.string().max(256).nullish() }).optional(),
    service_tier: z.enum(['auto', 'standard_only']).optional(),
  })
  .superRefine(checkToolChoice);

/** Body of POST /v1/messages. */
export const messagesRequestSchema = nullsAsAbsent(messagesObjectSchema);

/** Body of POST /v1/messages/count_tokens: the prompt fields of a Messages request. */
export const messagesCountTokensRequestSchema = nullsAsAbsent(
  z.strictObject(promptShape).superRefine(checkToolChoice),
);

export type MessagesRequest = z.output<typeof messagesRequestSchema>;
export type MessagesCountTokensRequest = z.output<typeof messagesCountTokensRequestSchema>;
