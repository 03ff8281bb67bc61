import { pythonJson } from '../json/python-json.js';
import { encodeText, specialTokens } from '../text/qwen-tokenizer.js';
import { imageTokenCount } from './image-token-count.js';
import type { ChatTool } from './parse-chat-tools.js';
import type { PromptMessage } from './prompt-messages.js';
import { replayedArguments, toolCallText } from './tool-call-text.js';

const imagePlaceholder = '<|vision_start|><|image_pad|><|vision_end|>';
const toolsPreamble =
  '# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>';
const toolsPostamble =
  '\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>';

/**
 * Qwen3's chat template: `<|im_start|>{role}\n{content}<|im_end|>\n` per message, then `<|im_start|>assistant\n`
 * as the generation prompt. Each image is `<|vision_start|><|image_pad|><|vision_end|>` in the text. With tools,
 * a system turn lists them (after a leading system message's text); an assistant's tool calls follow its
 * content as `<tool_call>` blocks; consecutive `tool` messages share one user turn of `<tool_response>` blocks.
 * `developer` is rendered as `system`, as templates that know the role do.
 */
export function renderChatPrompt(
  messages: readonly PromptMessage[],
  addGenerationPrompt: boolean,
  tools: readonly ChatTool[] = [],
): string {
  let text = '';
  let rest = messages;
  if (tools.length > 0) {
    text += '<|im_start|>system\n';
    const first = messages[0];
    if (first !== undefined && (first.role === 'system' || first.role === 'developer')) {
      text += `${contentOf(first)}\n\n`;
      rest = messages.slice(1);
    }
    text += toolsPreamble;
    // vLLM hands the template each tool's model_dump(), unset fields as null.
    for (const tool of tools)
      text += `\n${pythonJson({ type: 'function', function: { name: tool.name, description: tool.description ?? null, parameters: tool.parameters ?? null } })}`;
    text += `${toolsPostamble}<|im_end|>\n`;
  }
  for (const [index, message] of rest.entries()) {
    const content = contentOf(message);
    if (message.role === 'tool') {
      if (rest[index - 1]?.role !== 'tool') text += '<|im_start|>user';
      text += `\n<tool_response>\n${content}\n</tool_response>`;
      if (rest[index + 1]?.role !== 'tool') text += '<|im_end|>\n';
    } else if (message.role === 'assistant' && message.toolCalls.length > 0) {
      text += `<|im_start|>assistant\n${content}`;
      for (const [callIndex, call] of message.toolCalls.entries()) {
        if (callIndex > 0 || content !== '') text += '\n';
        text += toolCallText(call.name, replayedArguments(call.arguments));
      }
      text += '<|im_end|>\n';
    } else {
      text += `<|im_start|>${message.role === 'developer' ? 'system' : message.role}\n${content}<|im_end|>\n`;
    }
  }
  if (addGenerationPrompt) text += '<|im_start|>assistant\n';
  return text;
}

function contentOf(message: PromptMessage): string {
  return message.parts
    .map((part) => (part.kind === 'text' ? part.text : imagePlaceholder))
    .join('');
}

/**
 * The prompt's token ids as vLLM feeds them to the model: the rendered template encoded, then each
 * `<|image_pad|>` expanded to the image's placeholder count.
 */
export function chatPromptTokens(
  messages: readonly PromptMessage[],
  addGenerationPrompt: boolean,
  tools: readonly ChatTool[] = [],
): number[] {
  return encodeChatPrompt(renderChatPrompt(messages, addGenerationPrompt, tools), messages);
}

/** chatPromptTokens for a prompt already rendered from `messages` (whose images it expands). */
export function encodeChatPrompt(prompt: string, messages: readonly PromptMessage[]): number[] {
  const padCounts = messages.flatMap((message) =>
    message.parts.flatMap((part) =>
      part.kind === 'image' ? [imageTokenCount(part.width, part.height)] : [],
    ),
  );
  const ids = encodeText(prompt);
  if (padCounts.length === 0) return ids;
  const expanded: number[] = [];
  let image = 0;
  for (const id of ids) {
    if (id === specialTokens.imagePad && image < padCounts.length) {
      const count = padCounts[image] ?? 1;
      image += 1;
      for (let copy = 0; copy < count; copy += 1) expanded.push(id);
    } else {
      expanded.push(id);
    }
  }
  return expanded;
}
