import { asRecord } from '../http/as-record.js';
import { VllmError } from '../http/vllm-error.js';
import { decodeDataUrl } from '../images/decode-data-url.js';
import { readImageSize } from '../images/read-image-size.js';

export type PromptPart =
  | { kind: 'text'; text: string }
  | { kind: 'image'; bytes: Uint8Array; width: number; height: number };

/** A tool call an assistant message replays: `arguments` as sent (JSON text, or an object some clients send). */
export interface PromptToolCall {
  id: string | undefined;
  name: string;
  arguments: unknown;
}

export interface PromptMessage {
  role: string;
  parts: PromptPart[];
  /** An assistant message's `tool_calls` (its content may then be null). */
  toolCalls: PromptToolCall[];
  /** A `tool` message's `tool_call_id`, and its `name` where a client sends one. */
  toolCallId: string | undefined;
  name: string | undefined;
}

/**
 * Parses OpenAI/vLLM chat messages: content is a string, null, or a list of `{type:'text', text}` and
 * `{type:'image_url', image_url:{url}}` parts. Images must be base64 data URLs; their headers are read for size.
 * The forms agents replay are read too: an assistant's `tool_calls` (with `content: null`), a `tool` message's
 * `tool_call_id`; other keys are ignored, as vLLM ignores them.
 */
export async function parsePromptMessages(
  value: unknown,
  field = 'messages',
): Promise<PromptMessage[]> {
  if (!Array.isArray(value))
    throw VllmError.validation(
      `1 validation error: body.${field}: Input should be a valid list`,
      `body.${field}`,
    );
  const messages: PromptMessage[] = [];
  for (const [index, item] of value.entries()) {
    const path = `${field}[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw VllmError.validation(
        `body.${path}: Input should be a valid dictionary`,
        `body.${path}`,
      );
    const message = item as Record<string, unknown>;
    if (typeof message.role !== 'string')
      throw VllmError.validation(`body.${path}.role: Field required`, `body.${path}.role`);
    messages.push({
      role: message.role,
      parts: await parseContent(message.content, `${path}.content`),
      toolCalls: parseToolCalls(message.tool_calls, `${path}.tool_calls`),
      toolCallId: typeof message.tool_call_id === 'string' ? message.tool_call_id : undefined,
      name: typeof message.name === 'string' ? message.name : undefined,
    });
  }
  return messages;
}

function parseToolCalls(value: unknown, path: string): PromptToolCall[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value))
    throw VllmError.validation(`body.${path}: Input should be a valid list`, `body.${path}`);
  return value.map((item: unknown, index) => {
    const call = asRecord(item);
    const definition = asRecord(call?.function);
    if (typeof definition?.name !== 'string')
      throw VllmError.validation(
        `body.${path}[${index}].function.name: Field required`,
        `body.${path}[${index}].function.name`,
      );
    return {
      id: typeof call?.id === 'string' ? call.id : undefined,
      name: definition.name,
      arguments: definition.arguments ?? '{}',
    };
  });
}

async function parseContent(content: unknown, path: string): Promise<PromptPart[]> {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return [{ kind: 'text', text: content }];
  if (!Array.isArray(content))
    throw VllmError.validation(
      `body.${path}: Input should be a valid string or list`,
      `body.${path}`,
    );
  const parts: PromptPart[] = [];
  for (const [index, raw] of content.entries()) {
    const partPath = `${path}[${index}]`;
    const part = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    if (part.type === 'text' && typeof part.text === 'string') {
      parts.push({ kind: 'text', text: part.text });
    } else if (part.type === 'image_url') {
      const imageUrl = part.image_url;
      const url =
        typeof imageUrl === 'string'
          ? imageUrl
          : typeof imageUrl === 'object' && imageUrl !== null
            ? (imageUrl as Record<string, unknown>).url
            : undefined;
      if (typeof url !== 'string')
        throw VllmError.validation(
          `body.${partPath}.image_url.url: Field required`,
          `body.${partPath}.image_url.url`,
        );
      const image = decodeDataUrl(url, `${partPath}.image_url.url`);
      const size = await readImageSize(image.bytes, `${partPath}.image_url.url`);
      parts.push({ kind: 'image', bytes: image.bytes, ...size });
    } else {
      throw VllmError.badRequest(
        `Unsupported content part at ${partPath}: expected type text or image_url.`,
        partPath,
      );
    }
  }
  return parts;
}

/** The text of a message's text parts, joined as the chat template joins them. */
export function messageText(message: PromptMessage): string {
  return message.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
}

export function imageCount(messages: readonly PromptMessage[]): number {
  return messages.reduce(
    (sum, message) => sum + message.parts.filter((part) => part.kind === 'image').length,
    0,
  );
}
