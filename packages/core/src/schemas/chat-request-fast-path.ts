import {
  type ChatCompletionsRequest,
  chatCompletionsRequestSchema,
} from './chat-completions-request-schema.js';
import { maxMessages } from './item-bounds.js';
import { parseJson } from './parse-json.js';
import { parseRequestBody, validateRequest } from './parse-request-body.js';

// Speed-only (docs/performance.md, "Speed-only constructs"): the body most chat clients send, text
// messages and a few scalars, is checked here without the schema's walk. Whatever this does not
// accept outright goes to the schema, the one definition of a valid request and of its errors.

const textRoles = new Set(['system', 'developer', 'user', 'assistant']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

function isTextMessage(message: unknown): boolean {
  if (!isPlainObject(message)) return false;
  for (const key in message) if (key !== 'role' && key !== 'content') return false;
  return textRoles.has(message.role as string) && typeof message.content === 'string';
}

function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

function fieldIsPlain(key: string, value: unknown): boolean {
  switch (key) {
    case 'model':
      return typeof value === 'string' && value.length > 0;
    case 'messages':
      return (
        Array.isArray(value) &&
        value.length >= 1 &&
        value.length <= maxMessages &&
        value.every(isTextMessage)
      );
    case 'stream':
      return typeof value === 'boolean';
    case 'max_tokens':
    case 'max_completion_tokens':
      return isCount(value);
    case 'temperature':
      return typeof value === 'number' && value >= 0 && value <= 2;
    case 'top_p':
      return typeof value === 'number' && value > 0 && value <= 1;
    default:
      return false;
  }
}

/**
 * The value as a request when it is a plain one (model, text messages, stream, one token bound,
 * temperature, top_p, all in range), which the schema would return unchanged; else undefined.
 */
export function plainChatRequest(value: unknown): ChatCompletionsRequest | undefined {
  if (!isPlainObject(value)) return undefined;
  for (const key in value) if (!fieldIsPlain(key, value[key])) return undefined;
  if (value.model === undefined || value.messages === undefined) return undefined;
  if (value.max_tokens !== undefined && value.max_completion_tokens !== undefined) return undefined;
  return value as ChatCompletionsRequest;
}

/** Parses and validates a chat completions body; a failure is the schema's 400 naming the field. */
export function parseChatCompletionsRequest(body: string | undefined): ChatCompletionsRequest {
  if (body === undefined) return parseRequestBody(chatCompletionsRequestSchema, body);
  const value = parseJson(body);
  return plainChatRequest(value) ?? validateRequest(chatCompletionsRequestSchema, value);
}
