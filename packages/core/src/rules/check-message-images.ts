import type { ModelEntry } from '../catalogue/catalogue-types.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ChatMessage } from '../schemas/chat-completions-request-schema.js';
import type { MessagesMessage } from '../schemas/messages-content-schema.js';
import type { ResponsesRequest } from '../schemas/responses-request-schema.js';
import { messagesImages } from './request-image-urls.js';
import { checkImageDataUrl } from './check-image-data-url.js';

/** docs/design.md: image input of text models, any side over 4096 px is 400. */
const maxImageSide = 4096;

function refuseImages(entry: ModelEntry, param: string): void {
  if (!entry.inputModalities.includes('image')) {
    throw GatewayError.invalidParameter(
      param,
      `The model '${entry.id}' does not accept image input.`,
    );
  }
}

/**
 * Checks every image of a chat request: a base64 data URL (never fetched) of a readable image with
 * sides within 4096 px, read from its header only. Returns how many images there are.
 */
export function checkMessageImages(entry: ModelEntry, messages: readonly ChatMessage[]): number {
  let count = 0;
  messages.forEach((message, messageIndex) => {
    if (message.role !== 'user' || typeof message.content === 'string') return;
    message.content.forEach((part, partIndex) => {
      if (part.type !== 'image_url') return;
      const param = `messages[${messageIndex}].content[${partIndex}].image_url.url`;
      refuseImages(entry, param);
      checkImageDataUrl(part.image_url.url, param, { maxSide: maxImageSide });
      count += 1;
    });
  });
  return count;
}

/** The same checks for a responses request's input_image parts. Returns how many images there are. */
export function checkInputImages(entry: ModelEntry, input: ResponsesRequest['input']): number {
  if (typeof input === 'string') return 0;
  let count = 0;
  input.forEach((message, messageIndex) => {
    if (!('role' in message) || message.role !== 'user' || typeof message.content === 'string')
      return;
    message.content.forEach((part, partIndex) => {
      if (part.type !== 'input_image') return;
      const param = `input[${messageIndex}].content[${partIndex}].image_url`;
      refuseImages(entry, param);
      checkImageDataUrl(part.image_url, param, { maxSide: maxImageSide });
      count += 1;
    });
  });
  return count;
}

/** The same checks for a Messages request's image blocks, tool results' included. Returns how many images there are. */
export function checkMessagesImages(
  entry: ModelEntry,
  messages: readonly MessagesMessage[],
): number {
  let count = 0;
  for (const { dataUrl, param } of messagesImages(messages)) {
    refuseImages(entry, param);
    checkImageDataUrl(dataUrl, param, { maxSide: maxImageSide });
    count += 1;
  }
  return count;
}
