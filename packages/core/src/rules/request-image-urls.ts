import type { ChatMessage } from '../schemas/chat-completions-request-schema.js';
import type { ResponsesRequest } from '../schemas/responses-request-schema.js';

/** The URL of every image part of a chat request's user messages (the only role that takes images). */
export function* chatImageUrls(messages: readonly ChatMessage[]): Generator<string> {
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const part of message.content) if (part.type === 'image_url') yield part.image_url.url;
  }
}

/** The URL of every input_image part of a responses request's user messages. */
export function* inputImageUrls(input: ResponsesRequest['input']): Generator<string> {
  if (typeof input === 'string') return;
  for (const item of input) {
    if (!('role' in item) || item.role !== 'user' || typeof item.content === 'string') continue;
    for (const part of item.content) if (part.type === 'input_image') yield part.image_url;
  }
}
