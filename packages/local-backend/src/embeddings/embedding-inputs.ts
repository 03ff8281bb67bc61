import { parsePromptMessages } from '../chat/prompt-messages.js';
import type { PromptMessage } from '../chat/prompt-messages.js';
import { chatPromptTokens } from '../chat/render-chat-prompt.js';
import { VllmError } from '../http/vllm-error.js';
import { encodeText } from '../text/qwen-tokenizer.js';
import { lexicalTerms, tokenTerms } from '../text/lexical-terms.js';

/** One input to embed: its terms, its images, and its prompt length in Qwen3 tokens. */
export interface EmbeddingInput {
  terms: string[];
  images: Uint8Array[];
  promptTokens: number;
}

/**
 * vLLM's two request forms: completion (`input`: str | str[] | int[] | int[][]) gives one embedding per item;
 * chat (`messages`, text and image_url blocks) gives one embedding for the whole conversation.
 */
export async function embeddingInputs(body: Record<string, unknown>): Promise<EmbeddingInput[]> {
  if (body.input !== undefined) return completionInputs(body.input);
  if (body.messages !== undefined) return [chatInput(await parsePromptMessages(body.messages))];
  throw VllmError.validation('1 validation error: body.input: Field required', 'body.input');
}

function completionInputs(input: unknown): EmbeddingInput[] {
  if (typeof input === 'string') return [textInput(input)];
  if (Array.isArray(input)) {
    if (input.length === 0) throw VllmError.badRequest('Input must not be empty.', 'input');
    if (input.every((item) => typeof item === 'string')) return input.map((item) => textInput(item));
    if (input.every(isTokenId)) return [tokenInput(input)];
    if (input.every((item) => Array.isArray(item) && item.every(isTokenId))) return (input as number[][]).map((ids) => tokenInput(ids));
  }
  throw VllmError.validation('1 validation error: body.input: Input should be a string, a list of strings or token ids', 'body.input');
}

function isTokenId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function textInput(text: string): EmbeddingInput {
  return { terms: lexicalTerms(text), images: [], promptTokens: encodeText(text).length };
}

function tokenInput(ids: number[]): EmbeddingInput {
  return { terms: tokenTerms(ids), images: [], promptTokens: ids.length };
}

function chatInput(messages: PromptMessage[]): EmbeddingInput {
  const text = messages.flatMap((message) => message.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : []))).join(' ');
  const images = messages.flatMap((message) => message.parts.flatMap((part) => (part.kind === 'image' ? [part.bytes] : [])));
  return { terms: lexicalTerms(text), images, promptTokens: chatPromptTokens(messages, false).length };
}
