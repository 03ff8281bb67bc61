import { asRecord } from '../http/as-record.js';
import { VllmError } from '../http/vllm-error.js';

/** A function tool as vLLM's ChatCompletionToolsParam reads it. */
export interface ChatTool {
  name: string;
  description: string | undefined;
  parameters: unknown;
}

export type ToolChoice = 'none' | 'auto' | 'required' | { name: string };

export interface ChatTools {
  tools: ChatTool[];
  toolChoice: ToolChoice;
}

/**
 * `tools` (items `{type: "function", function: {name, description?, parameters?, strict?}}`) and `tool_choice`
 * (`none`, `auto`, `required` or `{type: "function", function: {name}}`; absent means auto). A named function
 * that is not among the tools is vLLM's 400 naming `tool_choice`.
 */
export function parseChatTools(body: Record<string, unknown>): ChatTools {
  const tools = parseTools(body.tools);
  const toolChoice = parseToolChoice(body.tool_choice);
  if (typeof toolChoice === 'object' && !tools.some((tool) => tool.name === toolChoice.name)) {
    throw VllmError.badRequest(
      `Tool '${toolChoice.name}' has not been passed in \`tools\`.`,
      'tool_choice',
    );
  }
  return { tools, toolChoice };
}

function parseTools(value: unknown): ChatTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw VllmError.invalidField('tools', 'Input should be a valid list');
  return value.map((item: unknown, index) => {
    const tool = asRecord(item);
    const path = `tools.${index}`;
    if (tool === undefined)
      throw VllmError.invalidField(path, 'Input should be a valid dictionary');
    if (tool.type !== 'function')
      throw VllmError.invalidField(`${path}.type`, "Input should be 'function'");
    const definition = asRecord(tool.function);
    if (definition === undefined)
      throw VllmError.invalidField(`${path}.function`, 'Field required');
    if (typeof definition.name !== 'string')
      throw VllmError.invalidField(`${path}.function.name`, 'Input should be a valid string');
    if (
      definition.description !== undefined &&
      definition.description !== null &&
      typeof definition.description !== 'string'
    ) {
      throw VllmError.invalidField(
        `${path}.function.description`,
        'Input should be a valid string',
      );
    }
    if (
      definition.parameters !== undefined &&
      definition.parameters !== null &&
      asRecord(definition.parameters) === undefined
    ) {
      throw VllmError.invalidField(
        `${path}.function.parameters`,
        'Input should be a valid dictionary',
      );
    }
    return {
      name: definition.name,
      description: typeof definition.description === 'string' ? definition.description : undefined,
      parameters: definition.parameters ?? undefined,
    };
  });
}

function parseToolChoice(value: unknown): ToolChoice {
  if (value === undefined || value === null) return 'auto';
  if (value === 'none' || value === 'auto' || value === 'required') return value;
  const choice = asRecord(value);
  const name = asRecord(choice?.function)?.name;
  if (choice?.type === 'function' && typeof name === 'string') return { name };
  throw VllmError.invalidField(
    'tool_choice',
    "Input should be 'none', 'auto', 'required' or {type: 'function', function: {name}}",
  );
}
