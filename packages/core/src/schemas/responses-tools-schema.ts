import { z } from 'zod';

/*
 * Tools, tool_choice and text.format of POST /v1/responses, in the completion API's responses form
 * (a function tool is flat: `{type, name, parameters}`; chat nests it under `function`). Only function
 * tools can be bridged to a chat upstream: a built-in tool (web search, file search, code interpreter,
 * computer use, MCP...) would need the gateway to run it, so it is refused naming `tools[i].type`.
 */

const functionToolSchema = z.object({
  type: z.literal('function'),
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});

export const responsesToolSchema = z
  .unknown()
  .transform((value, context): z.output<typeof functionToolSchema> => {
    const type =
      typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
    if (type !== 'function') {
      const named =
        typeof type === 'string'
          ? `tools of type '${type}' need the gateway to run them, and it runs none`
          : 'expected a tool object with a type';
      context.addIssue({
        code: 'custom',
        path: ['type'],
        input: type,
        message: `${named}: only function tools are supported`,
      });
      return z.NEVER;
    }
    const result = functionToolSchema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) context.addIssue({ ...issue });
    return z.NEVER;
  });

export type ResponsesFunctionTool = z.output<typeof functionToolSchema>;

export const responsesToolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.object({ type: z.literal('function'), name: z.string().min(1) }),
]);

export type ResponsesToolChoice = z.output<typeof responsesToolChoiceSchema>;

export const responsesTextFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    name: z.string().min(1),
    schema: z.record(z.string(), z.unknown()),
    description: z.string().nullish(),
    strict: z.boolean().nullish(),
  }),
]);

export const responsesTextSchema = z.object({
  format: responsesTextFormatSchema.nullish(),
  // Accepted and ignored: the chat upstream has no verbosity control.
  verbosity: z.enum(['low', 'medium', 'high']).nullish(),
});

export type ResponsesText = z.output<typeof responsesTextSchema>;
