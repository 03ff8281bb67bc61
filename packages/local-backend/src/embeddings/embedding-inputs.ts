import { parsePromptMessages } from '../chat/prompt-messages.js';
import type { PromptMessage } from '../chat/prompt-messages.js';
import { encodeChatPrompt, renderChatPrompt } from '../chat/render-chat-prompt.js';
import { VllmError } from '../http/vllm-error.js';
import { encodeText } from '../text/qwen-tokenizer.js';
import { lexicalTerms, tokenTerms } from '../text/lexical-terms.js';
import { tokenFloorReaching } from '../text/token-floor.js';

/** One input to embed: its terms, its images, and its prompt length in Qwen3 tokens. */
export interface EmbeddingInput {
  terms: string[];
  images: Uint8Array[];
  promptTokens: number;
}

/** vLLM's answer to an input longer than the model's context window (`atLeast`: known before tokenizing it). */
export function inputTooLong(contextWindow: number, tokens: number, atLeast = false): VllmError {
  return VllmError.badRequest(
    `This model's maximum context length is ${contextWindow} tokens. However, you requested ${atLeast ? 'at least ' : ''}${tokens} tokens in the input for embedding generation. Please reduce the length of the input.`,
    'input_tokens',
  );
}

/**
 * vLLM's two request forms: completion (`input`: str | str[] | int[] | int[][]) gives one embedding per item;
 * chat (`messages`, text and image_url blocks) gives one embedding for the whole conversation. A text that
 * its size alone proves longer than `contextWindow` is refused before it is tokenized.
 */
export async function embeddingInputs(
  body: Record<string, unknown>,
  contextWindow: number | null,
): Promise<EmbeddingInput[]> {
  if (body.input !== undefined) return completionInputs(body.input, contextWindow);
  if (body.messages !== undefined)
    return [chatInput(await parsePromptMessages(body.messages), contextWindow)];
  throw VllmError.validation('1 validation error: body.input: Field required', 'body.input');
}

function refuseOverlong(text: string, contextWindow: number | null): void {
  if (contextWindow === null) return;
  const floor = tokenFloorReaching(text, contextWindow + 1);
  if (floor !== undefined) throw inputTooLong(contextWindow, floor, true);
}

function completionInputs(input: unknown, contextWindow: number | null): EmbeddingInput[] {
  if (typeof input === 'string') return [textInput(input, contextWindow)];
  if (Array.isArray(input)) {
    if (input.length === 0) throw VllmError.badRequest('Input must not be empty.', 'input');
    if (input.every((item) => typeof item === 'string'))
      return input.map((item) => textInput(item, contextWindow));
    if (input.every(isTokenId)) return [tokenInput(input)];
    if (input.every((item) => Array.isArray(item) && item.every(isTokenId)))
      return (input as number[][]).map((ids) => tokenInput(ids));
  }
  throw VllmError.validation(
    '1 validation error: body.input: Input should be a string, a list of strings or token ids',
    'body.input',
  );
}

function isTokenId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function textInput(text: string, contextWindow: number | null): EmbeddingInput {
  refuseOverlong(text, contextWindow);
  return { terms: lexicalTerms(text), images: [], promptTokens: encodeText(text).length };
}

function tokenInput(ids: number[]): EmbeddingInput {
  return { terms: tokenTerms(ids), images: [], promptTokens: ids.length };
}

function chatInput(messages: PromptMessage[], contextWindow: number | null): EmbeddingInput {
  const prompt = renderChatPrompt(messages, false);
  refuseOverlong(prompt, contextWindow);
  const text = messages
    .flatMap((message) =>
      message.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])),
    )
    .join(' ');
  const images = messages.flatMap((message) =>
    message.parts.flatMap((part) => (part.kind === 'image' ? [part.bytes] : [])),
  );
  return {
    terms: lexicalTerms(text),
    images,
    promptTokens: encodeChatPrompt(prompt, messages).length,
  };
}
