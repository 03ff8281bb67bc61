import type { UpstreamPathAndBody } from '../upstream-protocol.js';

/** Long enough for a detailed image prompt, short enough that a runaway answer costs little. */
export const promptEnhancementMaxTokens = 512;

const generationInstruction =
  "You rewrite prompts for an image generation model. Rewrite the user's prompt as one detailed prompt: keep every subject, " +
  'element and constraint it states, and add concrete visual detail (composition, setting, lighting, colours, textures, style, ' +
  'medium or camera). Do not add text to be rendered in the image unless the prompt asks for it. Answer with the rewritten ' +
  'prompt only: no preamble, no quotes, no explanation.';

const editInstruction =
  "You rewrite instructions for an image editing model. Rewrite the user's edit instruction as one precise instruction: keep " +
  'what it asks to change and what to keep, and add concrete visual detail about the change (placement, size, colours, lighting ' +
  'and style consistent with the original image). Answer with the rewritten instruction only: no preamble, no quotes, no explanation.';

/**
 * The chat-completions call that rewrites an image prompt on the `-pe` models' text model (spec: the
 * prompt is first rewritten with more detail by a text model of the catalogue). Non-streaming, and
 * with thinking off (`chat_template_kwargs.enable_thinking`, vLLM), so the answer is the prompt alone.
 */
export function imagePromptEnhancementRequest(
  upstreamModel: string,
  prompt: string,
  kind: 'generation' | 'edit',
): UpstreamPathAndBody {
  return {
    path: '/v1/chat/completions',
    body: {
      model: upstreamModel,
      messages: [
        { role: 'system', content: kind === 'edit' ? editInstruction : generationInstruction },
        { role: 'user', content: prompt },
      ],
      max_tokens: promptEnhancementMaxTokens,
      stream: false,
      chat_template_kwargs: { enable_thinking: false },
    },
  };
}
