import type { ChatMessage } from '../schemas/chat-completions-request-schema.js';
import { imageDataUrl, type MessagesMessage } from '../schemas/messages-content-schema.js';
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

/**
 * Every image block of a Messages request's user turns (tool results' included): its data URL, its
 * base64 text as the body holds it, and its `param` pointing at that base64 text.
 */
export function* messagesImages(
  messages: readonly MessagesMessage[],
): Generator<{ dataUrl: string; data: string; param: string }> {
  for (const [messageIndex, message] of messages.entries()) {
    if (message.role !== 'user' || typeof message.content === 'string') continue;
    for (const [blockIndex, block] of message.content.entries()) {
      const at = `messages[${messageIndex}].content[${blockIndex}]`;
      if (block.type === 'image' && block.source.type === 'base64')
        yield { dataUrl: imageDataUrl(block), data: block.source.data, param: `${at}.source.data` };
      if (block.type !== 'tool_result' || typeof block.content !== 'object') continue;
      for (const [partIndex, part] of block.content.entries())
        if (part.type === 'image' && part.source.type === 'base64')
          yield {
            dataUrl: imageDataUrl(part),
            data: part.source.data,
            param: `${at}.content[${partIndex}].source.data`,
          };
    }
  }
}
