import { encodeText, specialTokens } from '../text/qwen-tokenizer.js';
import { imageTokenCount } from './image-token-count.js';
import type { PromptMessage } from './prompt-messages.js';

const imagePlaceholder = '<|vision_start|><|image_pad|><|vision_end|>';

/**
 * Qwen3's ChatML: `<|im_start|>{role}\n{content}<|im_end|>\n` per message, then `<|im_start|>assistant\n` as the
 * generation prompt. Each image is `<|vision_start|><|image_pad|><|vision_end|>` in the text.
 */
export function renderChatPrompt(messages: readonly PromptMessage[], addGenerationPrompt: boolean): string {
  let text = '';
  for (const message of messages) {
    const content = message.parts.map((part) => (part.kind === 'text' ? part.text : imagePlaceholder)).join('');
    text += `<|im_start|>${message.role}\n${content}<|im_end|>\n`;
  }
  if (addGenerationPrompt) text += '<|im_start|>assistant\n';
  return text;
}

/**
 * The prompt's token ids as vLLM feeds them to the model: the rendered ChatML encoded, then each
 * `<|image_pad|>` expanded to the image's placeholder count.
 */
export function chatPromptTokens(messages: readonly PromptMessage[], addGenerationPrompt: boolean): number[] {
  const padCounts = messages.flatMap((message) => message.parts.flatMap((part) => (part.kind === 'image' ? [imageTokenCount(part.width, part.height)] : [])));
  const ids = encodeText(renderChatPrompt(messages, addGenerationPrompt));
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
