import { pythonJson } from '../json/python-json.js';

/**
 * One tool call as Qwen3 writes it and its chat template replays it:
 * `<tool_call>\n{"name": "<name>", "arguments": <arguments JSON>}\n</tool_call>`.
 */
export function toolCallText(name: string, argumentsJson: string): string {
  return `${toolCallPrefix(name)}${argumentsJson}}\n</tool_call>`;
}

/** Everything of the tool call text before its arguments: the part a streaming tool parser reads the name from. */
export function toolCallPrefix(name: string): string {
  return `<tool_call>\n{"name": "${name}", "arguments": `;
}

/**
 * Arguments as the template renders them: vLLM parses an assistant message's JSON arguments into an object
 * before templating, and `tojson` writes it back; text that is not JSON is rendered as it came.
 */
export function replayedArguments(value: unknown): string {
  if (typeof value !== 'string') return pythonJson(value);
  try {
    return pythonJson(JSON.parse(value));
  } catch {
    return value;
  }
}
