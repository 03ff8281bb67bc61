import { asRecord } from '../http/as-record.js';
import { randomHex } from '../http/random-hex.js';
import { pythonJson } from '../json/python-json.js';
import { valueForSchema } from '../json/value-for-schema.js';
import type { DecodeOutcome } from './decode-choice.js';
import type { ChatTool } from './parse-chat-tools.js';
import { toolCallPrefix, toolCallText } from './tool-call-text.js';

/** One tool call a choice makes: its wire fields and the text the model generates for it. */
export interface ToolCallPlan {
  /** vLLM's form: `chatcmpl-tool-` and 32 hex digits. */
  id: string;
  name: string;
  /** JSON text valid for the tool's parameters schema, written as vLLM's tool parser re-serializes it. */
  arguments: string;
  /** The generated text before the arguments; a streaming parser sends the name once it has read this. */
  prefix: string;
  /** The whole generated text, `<tool_call>` block included. */
  text: string;
}

/**
 * A call of `tool` with arguments built from the prompt's words, the same for the same request. Arguments are
 * always a JSON object, as clients parse them: a tool without parameters, or with an open schema such as `{}`,
 * gets `{}`.
 */
export function planToolCall(tool: ChatTool, words: readonly string[]): ToolCallPlan {
  const value = tool.parameters === undefined ? {} : valueForSchema(tool.parameters, words);
  const argumentsJson = pythonJson(asRecord(value) ?? {});
  return {
    id: `chatcmpl-tool-${randomHex()}`,
    name: tool.name,
    arguments: argumentsJson,
    prefix: toolCallPrefix(tool.name),
    text: toolCallText(tool.name, argumentsJson),
  };
}

/**
 * Whether the generation produced the whole call. A stop string or max_tokens can cut it short; then, as
 * vLLM's Hermes parser does with an unfinished `<tool_call>`, the text is the answer's content instead.
 */
export function isCompleteToolCall(plan: ToolCallPlan, outcome: DecodeOutcome): boolean {
  return outcome.finishReason === 'stop' && outcome.content.trimEnd() === plan.text;
}
